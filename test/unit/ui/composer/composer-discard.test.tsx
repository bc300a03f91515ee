// @vitest-environment happy-dom
/**
 * The composer's Discard (trash button "Discard draft", Ctrl+Shift+D): nothing more is
 * saved, the host gets the draft's id and everything it held, and Undo (restoreDiscarded)
 * saves it again as a new draft and opens it as it was.
 */
import '../support/happy-dom-node-name';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { DraftInput } from '../../../../shared/worker-mail-api';
import { restoreDiscarded } from '../../../../src-ui/app/ComposerHost';
import { composeNew, type ComposerInitial } from '../../../../src-ui/composer/compose-initial';
import { cleanup, click, key, one, typeInto } from '../support/render';
import { advance, renderComposer } from './composer-harness';

const setup = renderComposer;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const saved: ComposerInitial = {
  ...composeNew('acc1'),
  draftId: 'local-0123abcd-4567-89ab-cdef-0123456789ab',
  to: [{ name: 'Bob', email: 'bob@kite.test' }, { name: '', email: 'bob@kite' }],
  subject: 'Plans',
  html: '<p>Half a thought</p>',
  attachments: [{ attachmentId: 'a'.repeat(32), fileName: 'plan.pdf', size: 4096 }],
};

test('Discard hands over the draft id and all it held, and saves nothing more — not what was typed just before', async () => {
  const { view, onDiscard, onSave } = setup(saved);
  typeInto(one(view, 'textbox', 'Subject') as HTMLInputElement, 'Plans, take two');
  click(one(view, 'button', 'Discard draft'));
  await advance(0);
  expect(onDiscard).toHaveBeenCalledTimes(1);
  const { draftId, restore } = onDiscard.mock.calls[0]![0];
  expect(draftId).toBe(saved.draftId);
  expect(restore).toMatchObject({ mode: 'new', accountId: 'acc1', to: saved.to, subject: 'Plans, take two', attachments: saved.attachments });
  expect(restore.html).toContain('Half a thought');
  cleanup();
  await advance(5_000);
  expect(onSave).not.toHaveBeenCalled();
});

test('Ctrl+Shift+D discards from any field', async () => {
  const { view, onDiscard } = setup(saved);
  key(one(view, 'textbox', 'Subject'), 'D', { ctrlKey: true, shiftKey: true });
  await advance(0);
  expect(onDiscard).toHaveBeenCalledTimes(1);
});

test('Undo saves the draft again under a new id and opens it as it was', async () => {
  const actions = { saveDraft: vi.fn(async (draft: DraftInput) => ({ draftId: draft.draftId! })), openComposer: vi.fn(), toast: vi.fn() };
  const { draftId: _old, ...restore } = saved;
  await restoreDiscarded(actions, { ...restore, inReplyToMessageId: '42' });
  const again = actions.saveDraft.mock.calls[0]![0];
  expect(again.draftId).toMatch(/^local-[0-9a-f-]{36}$/);
  expect(again).toMatchObject({ accountId: 'acc1', to: saved.to, subject: 'Plans', html: saved.html, inReplyToMessageId: '42', attachmentIds: ['a'.repeat(32)] });
  expect(actions.openComposer).toHaveBeenCalledWith(expect.objectContaining({ draftId: again.draftId, subject: 'Plans', attachments: saved.attachments }));
});
