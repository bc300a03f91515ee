// @vitest-environment happy-dom
/**
 * The composer tells the truth (issue "Trust" point 3): "Saved" only once the gateway took
 * this version, "Saved on this device only" (with why) while it cannot, a conflict at once
 * with Keep both / Use the other version, and after a failed send its text comes back with
 * the catalogue's sentence and the mail server's own reply.
 */
import '../support/happy-dom-node-name';
import { act, useState } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { TernError } from '../../../../shared/errors';
import type { CommandStatus, DraftInput, DraftSaveReceipt } from '../../../../shared/worker-mail-api';
import { Composer, type ComposerProps } from '../../../../src-ui/composer/Composer';
import { composeNew, type ComposerInitial } from '../../../../src-ui/composer/compose-initial';
import { accessibleName, click, one, render, cleanup, typeInto } from '../support/render';
import { advance } from './composer-harness';

const ACCOUNTS = [{ accountId: 'acc1', name: 'Alice Tern', email: 'alice@tern.test' }];
const OPENED: ComposerInitial = { ...composeNew('acc1'), draftId: 'd-1', revision: 3, subject: 'Plans', to: [{ name: '', email: 'bob@kite.test' }] };

let setStatuses: (statuses: Record<string, CommandStatus>) => void = () => undefined;

function setup(initial: ComposerInitial, onSave: (draft: DraftInput) => Promise<DraftSaveReceipt>, over: Partial<ComposerProps> = {}) {
  const props = {
    onSave: vi.fn(onSave),
    onSend: vi.fn(async () => ({ commandId: 'send-1' })),
    onUndo: vi.fn(async () => true),
    onUpload: vi.fn(async () => ({ attachmentId: 'up-1' })),
    suggest: vi.fn(async () => []),
    onClose: vi.fn(),
    onUseOtherVersion: vi.fn(),
  };
  function Host() {
    const [statuses, set] = useState<Record<string, CommandStatus>>({});
    setStatuses = (next) => set(next);
    return <Composer initial={initial} accounts={ACCOUNTS} draftStatuses={statuses} {...props} {...over} />;
  }
  return { view: render(<Host />), ...props };
}

const indicator = (view: HTMLElement) => view.querySelector<HTMLElement>('.tern-save-status')!;
const subjectBox = (view: HTMLElement) => one(view, 'textbox', 'Subject') as HTMLInputElement;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

test('"Saved" waits for the gateway: a save the engine keeps retrying reads "Saved on this device only" with the reason', async () => {
  const { view } = setup(OPENED, async (draft) => ({ draftId: draft.draftId!, revision: 4, commandId: 'save-4' }));
  typeInto(subjectBox(view), 'Plans for Friday');
  await advance(1500);
  // Recorded by the engine only: not "Saved".
  expect(indicator(view).textContent).toBe('Saving…');

  act(() => setStatuses({ 'd-1': { commandId: 'save-4', accountId: 'acc1', kind: 'saveDraft', status: 'pending', draftId: 'd-1', error: { name: 'OperationFailed', message: 'The mail server did not answer.' } } }));
  expect(indicator(view).getAttribute('data-state')).toBe('local');
  expect(indicator(view).getAttribute('role')).toBe('status');
  expect(indicator(view).textContent).toContain('Saved on this device only');
  expect(indicator(view).getAttribute('title')).toBe('Draft saved on this device only, not on the server yet: The mail server did not answer.');

  act(() => setStatuses({ 'd-1': { commandId: 'save-4', accountId: 'acc1', kind: 'saveDraft', status: 'done', draftId: 'd-1' } }));
  expect(indicator(view).textContent).toBe('Saved');
});

test('a save refused because another tab saved the draft is a conflict at once; Keep both saves this text as a new draft', async () => {
  const { view, onSave } = setup(OPENED, async (draft) => {
    if (draft.draftId === 'd-1') throw new TernError('InvalidDraftVersion', { detail: { reason: 'edited' } });
    return { draftId: 'local-new', revision: 1, commandId: 'save-new' };
  });
  typeInto(subjectBox(view), 'Mine');
  await advance(1500);
  expect(onSave.mock.calls[0]?.[0]).toMatchObject({ draftId: 'd-1', baseRevision: 3 });
  const bar = one(view, 'alert');
  expect(bar.textContent).toContain('This draft was changed in another tab or window.');
  expect(indicator(view).textContent).toContain('Conflict');

  // Typing on saves nothing over the other version.
  typeInto(subjectBox(view), 'Mine, longer');
  await advance(3000);
  expect(onSave).toHaveBeenCalledTimes(1);

  click(one(bar, 'button', 'Keep both'));
  await advance(0);
  expect(onSave).toHaveBeenCalledTimes(2);
  expect(onSave.mock.calls[1]?.[0]).toMatchObject({ draftId: undefined, subject: 'Mine, longer' });
  expect(view.querySelector('.tern-conflict-bar')).toBeNull();
});

test('"Use the other version" hands the draft to the host, and this text is let go on purpose (not kept on close)', async () => {
  const { view, onSave, onUseOtherVersion } = setup(OPENED, async () => {
    throw new TernError('InvalidDraftVersion', { detail: { reason: 'edited' } });
  });
  typeInto(subjectBox(view), 'Mine');
  await advance(1500);
  click(one(view, 'button', 'Use the other version'));
  await advance(0);
  expect(onUseOtherVersion).toHaveBeenCalledWith({ accountId: 'acc1', draftId: 'd-1' });
  cleanup();
  await advance(0);
  expect(onSave).toHaveBeenCalledTimes(1);
});

test('a conflict the gateway reports after the save was recorded (409) shows too, with Keep both going on with the kept copy', async () => {
  const { view, onSave } = setup(OPENED, async (draft) => ({ draftId: draft.draftId!, revision: 4, commandId: `save-${draft.draftId}` }));
  typeInto(subjectBox(view), 'Mine');
  await advance(1500);
  act(() =>
    setStatuses({
      'd-1': { commandId: 'save-d-1', accountId: 'acc1', kind: 'saveDraft', status: 'failed', draftId: 'd-1', keptAs: 'local-kept', error: { name: 'InvalidDraftVersion', message: 'changed' } },
    }),
  );
  expect(one(view, 'alert').textContent).toContain('changed in another tab');
  typeInto(subjectBox(view), 'Mine, on');
  click(one(view, 'button', 'Keep both'));
  await advance(0);
  expect(onSave.mock.calls.at(-1)?.[0]).toMatchObject({ draftId: 'local-kept', baseRevision: 0, subject: 'Mine, on' });
});

test("back after a failed send: the text, the catalogue's sentence and the mail server's reply", () => {
  const { view } = setup({ ...OPENED, html: '<p>Dear Bob</p>', sendFailure: { message: new TernError('SendFailed').message, detail: '550 5.1.1 <bob@kite.test>: Recipient address rejected' } }, async (draft) => ({
    draftId: draft.draftId!,
  }));
  const notice = one(view, 'alert');
  expect(notice.textContent).toContain('The message was not sent. Message could not be sent: the details are invalid or the mail server is unreachable.');
  expect(notice.textContent).toContain('The mail server answered: “550 5.1.1 <bob@kite.test>: Recipient address rejected”');
  expect(one(view, 'textbox', 'Message body').textContent).toContain('Dear Bob');
  expect(accessibleName(subjectBox(view))).toBe('Subject');
});

test('a save the engine gave up on reads "Not saved" with the reason, and Retry saves the same text again', async () => {
  const { view, onSave } = setup(OPENED, async (draft) => ({ draftId: draft.draftId!, revision: 4, commandId: `save-${onSave.mock.calls.length}` }));
  typeInto(subjectBox(view), 'Plans, again');
  await advance(1500);
  act(() => setStatuses({ 'd-1': { commandId: 'save-1', accountId: 'acc1', kind: 'saveDraft', status: 'failed', draftId: 'd-1', error: { name: 'MailQuotaFull', message: 'Your mailbox is full.' } } }));
  expect(indicator(view).textContent).toContain('Not saved');
  const retry = one(view, 'button', 'Retry');
  expect(retry.closest('.tern-footer-hint')?.textContent).toContain('Draft not saved: Your mailbox is full.');
  click(retry);
  await advance(0);
  expect(onSave).toHaveBeenCalledTimes(2);
  expect(onSave.mock.calls[1]?.[0]).toMatchObject({ subject: 'Plans, again', draftId: 'd-1' });
});

test('a tab closed while its draft is in conflict keeps the text as a draft of its own', async () => {
  const { view, onSave } = setup(OPENED, async (draft) => {
    if (draft.draftId === 'd-1') throw new TernError('InvalidDraftVersion', { detail: { reason: 'edited' } });
    return { draftId: 'local-new', revision: 1, commandId: 'save-new' };
  });
  typeInto(subjectBox(view), 'Mine');
  await advance(1500);
  one(view, 'alert');
  typeInto(subjectBox(view), 'Mine, last words');
  act(() => void window.dispatchEvent(new Event('pagehide')));
  await advance(0);
  expect(onSave).toHaveBeenCalledTimes(2);
  expect(onSave.mock.calls[1]?.[0]).toMatchObject({ draftId: undefined, subject: 'Mine, last words' });
});
