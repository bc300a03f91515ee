// @vitest-environment happy-dom
/**
 * The identity's signature in the composer: under a new message's first line; above the
 * quote of a reply (never inside it) unless the identity keeps it off replies; swapped when
 * the From changes, left alone once the person edited it.
 */
import '../support/happy-dom-node-name';
import { act } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Composer } from '../../../../src-ui/composer/Composer';
import { composeNew, type ComposerInitial } from '../../../../src-ui/composer/compose-initial';
import { cleanup, one, render } from '../support/render';

const WORK = '<p><b>Alice</b> · Work</p>';
const CLUB = '<p>Alice, kite club</p>';
const ACCOUNTS = [
  { accountId: 'acc1', identityId: 'own', name: 'Alice', email: 'alice@tern.test', isDefault: true, signatureHtml: WORK, signatureOnReplies: true },
  { accountId: 'acc1', identityId: 'club', name: 'Alice', email: 'alice.club@tern.test', signatureHtml: CLUB, signatureOnReplies: false },
  { accountId: 'acc1', identityId: 'plain', name: 'Alice', email: 'alice.plain@tern.test', signatureHtml: '' },
];

function setup(initial: ComposerInitial) {
  const onSave = vi.fn(async (draft: { draftId?: string }) => ({ draftId: draft.draftId ?? 'local-7' }));
  const view = render(
    <Composer initial={initial} accounts={ACCOUNTS} onSave={onSave} onSend={vi.fn()} onUndo={vi.fn()} onUpload={vi.fn()} suggest={vi.fn(async () => [])} onClose={vi.fn()} />,
  );
  return { view, onSave, body: () => one(view, 'textbox', 'Message body'), from: (key: string) => act(() => {
    const select = one(view, 'combobox', 'From') as HTMLSelectElement;
    select.value = key;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

test('a new message: an empty first line, then "-- " and the default identity’s signature; another From swaps it, one without removes it', () => {
  const { body, from } = setup(composeNew('acc1'));
  expect(body().innerHTML).toBe(`<p><br></p><div class="tern-signature"><div>-- </div>${WORK}</div>`);
  from('acc1/club');
  expect(body().querySelector('.tern-signature')?.innerHTML).toBe(`<div>-- </div>${CLUB}`);
  from('acc1/plain');
  expect(body().querySelector('.tern-signature')).toBeNull();
  from('acc1/own');
  expect(body().querySelector('.tern-signature')?.innerHTML).toBe(`<div>-- </div>${WORK}`);
});

test('from an identity without a signature to one with: it comes in under an empty line to write on', () => {
  const { body, from } = setup({ ...composeNew('acc1'), from: { name: 'Alice', email: 'alice.plain@tern.test' } });
  expect(body().innerHTML).toBe('');
  from('acc1/own');
  expect(body().innerHTML).toBe(`<p><br></p><div class="tern-signature"><div>-- </div>${WORK}</div>`);
});

test('an edited signature stays when the From changes', () => {
  const { body, from } = setup(composeNew('acc1'));
  act(() => {
    body().querySelector('.tern-signature p')!.append(' — on leave until May');
    body().dispatchEvent(new Event('input', { bubbles: true }));
  });
  from('acc1/club');
  expect(body().querySelector('.tern-signature')?.textContent).toContain('on leave until May');
});

test('a reply: the signature above the quote, never inside it; an identity that keeps it off replies adds none', () => {
  const quote = '<p><br></p><div class="tern-quote"><p>On Monday Bob wrote:</p><blockquote type="cite"><p>Lunch?</p></blockquote></div>';
  const reply: ComposerInitial = { ...composeNew('acc1'), mode: 'reply', html: quote };
  const { body, from } = setup(reply);
  const children = [...body().children].map((child) => child.className || child.localName);
  expect(children).toEqual(['p', 'tern-signature', 'tern-quote']);
  expect(body().querySelector('blockquote .tern-signature, .tern-quote .tern-signature')).toBeNull();
  from('acc1/club');
  expect(body().querySelector('.tern-signature')).toBeNull();
  cleanup();
  const club = setup({ ...reply, from: { name: 'Alice', email: 'alice.club@tern.test' } });
  expect(club.body().querySelector('.tern-signature')).toBeNull();
});
