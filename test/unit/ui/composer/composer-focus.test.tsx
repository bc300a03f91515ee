// @vitest-environment happy-dom
/**
 * Focus around the composer: back to what opened it once it closes (composer-focus.ts),
 * the field that had it after Undo send, the bad chip when Send is refused.
 */
import '../support/happy-dom-node-name';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { openerOf, restoreComposerFocus, returnTarget } from '../../../../src-ui/kit/composer-focus';
import { composeNew, type ComposerInitial } from '../../../../src-ui/composer/compose-initial';
import { cleanup, click, key, one, typeInto } from '../support/render';
import { advance, renderComposer } from './composer-harness';

const setup = renderComposer;

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('returning the focus when the composer closes', () => {
  const page = () => {
    document.body.innerHTML = `
      <div id="thread-list" tabindex="0"></div>
      <div class="reading-pane"><div class="reading-pane-scroll" tabindex="-1"><button id="reply">Reply</button></div></div>
      <div class="composer-dock"><input id="in-composer"></div>`;
    return { reply: document.getElementById('reply')!, list: document.getElementById('thread-list')!, pane: document.querySelector<HTMLElement>('.reading-pane-scroll')! };
  };

  test('the opener is the focused element, never the page or the composer itself', () => {
    const { reply } = page();
    expect(openerOf(reply)).toBe(reply);
    expect(openerOf(document.body)).toBeNull();
    expect(openerOf(document.getElementById('in-composer'), reply)).toBe(reply);
  });

  test('focus lost to the page goes back to the opener while it is there, else the conversation, else the list', () => {
    const { reply, pane, list } = page();
    (document.activeElement as HTMLElement | null)?.blur();
    expect(restoreComposerFocus(reply)).toBe(reply);
    expect(document.activeElement).toBe(reply);

    reply.remove();
    (document.activeElement as HTMLElement | null)?.blur();
    expect(restoreComposerFocus(reply)).toBe(pane);
    pane.closest('.reading-pane')!.remove();
    expect(returnTarget(reply)).toBe(list);
  });

  test('focus the person put elsewhere meanwhile stays there', () => {
    const { reply, list } = page();
    list.focus();
    expect(restoreComposerFocus(reply)).toBeNull();
    expect(document.activeElement).toBe(list);
  });
});

describe('in the composer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const ready: ComposerInitial = { ...composeNew('acc1'), to: [{ name: 'Bob', email: 'bob@example.com' }], subject: 'Hi' };

  test('after Undo send the body editor has the focus, the caret after what was written (above a quote)', async () => {
    const { view } = setup({ ...ready, mode: 'reply', html: '<p>Thanks!</p><div class="tern-quote"><p>On Monday, Bob wrote:</p></div>' });
    click(one(view, 'button', /^Send$/));
    await advance(0);
    click(one(view, 'button', 'Undo'));
    await advance(0);
    const body = one(view, 'textbox', 'Message body');
    expect(document.activeElement).toBe(body);
    const range = document.getSelection()!.getRangeAt(0);
    expect(range.collapsed).toBe(true);
    expect(body.querySelector('p')!.contains(range.startContainer) || range.startContainer === body.querySelector('p')).toBe(true);
  });

  test('after Undo send from the Subject (Ctrl+Enter), the Subject has the focus again', async () => {
    const { view } = setup(ready);
    const subject = one(view, 'textbox', 'Subject') as HTMLInputElement;
    subject.focus();
    key(subject, 'Enter', { ctrlKey: true });
    await advance(0);
    click(one(view, 'button', 'Undo'));
    await advance(0);
    expect(document.activeElement).toBe(one(view, 'textbox', 'Subject'));
  });

  test('Send with an invalid chip sends nothing: the field says the catalogue sentence and the bad chip has the focus', async () => {
    const { view, onSend } = setup({ ...ready, to: [{ name: '', email: 'bob@kite' }] });
    click(one(view, 'button', /^Send$/));
    await advance(0);
    expect(onSend).not.toHaveBeenCalled();
    expect(view.querySelector('.tern-field-error')?.textContent).toContain('This email address is not valid.');
    expect(document.activeElement).toBe(one(view, 'button', 'Edit bob@kite, invalid address'));
  });

  test('an invalid chip typed just before Send gets the focus too', async () => {
    const { view, onSend } = setup({ ...ready, to: [] });
    typeInto(one(view, 'combobox', 'To') as HTMLInputElement, 'carol@kite');
    click(one(view, 'button', /^Send$/));
    await advance(0);
    expect(onSend).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(one(view, 'button', 'Edit carol@kite, invalid address'));
  });
});
