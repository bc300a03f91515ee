/**
 * A draft alone in Drafts opens in the composer (Gmail): the row's message is opened as
 * the draft the gateway keeps and handed to the composer; a row of a conversation, a row
 * outside Drafts, or a "draft" row whose message is no draft opens its thread instead.
 */
import { expect, test } from 'vitest';
import type { DraftEdit, MessageView, ThreadView } from '../../../../shared/worker-mail-api';
import { isLoneDraftRow, openDraftRow } from '../../../../src-ui/app/open-draft';
import type { ComposerInitial } from '../../../../src-ui/composer/compose-initial';
import type { MailActions } from '../../../../src-ui/state/mail-actions';

const message = (draft: boolean) => ({ id: '7', accountId: 'a1', threadId: 't1', draft }) as MessageView;
const saved: DraftEdit = { accountId: 'a1', draftId: '7', to: [{ name: 'Bob', email: 'bob@kite.test' }], cc: [], bcc: [], subject: 'Plans', html: '<p>Hi Bob</p>', attachments: [] };

function fakeActions(messages: MessageView[]) {
  const opened: ComposerInitial[] = [];
  const asked: unknown[] = [];
  const actions = {
    loadThread: async () => ({ row: {}, messages }) as unknown as ThreadView,
    openDraft: async (params: unknown) => {
      asked.push(params);
      return saved;
    },
    openComposer: (initial: ComposerInitial) => opened.push(initial),
    toast: () => 0,
  } as unknown as MailActions;
  return { actions, opened, asked };
}

test('only a one-message row of Drafts is a lone draft', () => {
  expect(isLoneDraftRow({ messageCount: 1 }, 'drafts')).toBe(true);
  expect(isLoneDraftRow({ messageCount: 2 }, 'drafts')).toBe(false);
  expect(isLoneDraftRow({ messageCount: 1 }, 'inbox')).toBe(false);
  expect(isLoneDraftRow({ messageCount: 1 }, null)).toBe(false);
});

test('a lone draft opens in the composer with what the gateway keeps of it', async () => {
  const { actions, opened, asked } = fakeActions([message(true)]);
  await expect(openDraftRow(actions, { accountId: 'a1', threadId: 't1' })).resolves.toBe(true);
  expect(asked).toEqual([{ accountId: 'a1', messageId: '7' }]);
  expect(opened).toEqual([{ mode: 'new', ...saved }]);
});

test('a message that is no draft, or a conversation, is left to the thread view', async () => {
  for (const messages of [[message(false)], [message(false), message(true)]]) {
    const { actions, opened } = fakeActions(messages);
    await expect(openDraftRow(actions, { accountId: 'a1', threadId: 't1' })).resolves.toBe(false);
    expect(opened).toEqual([]);
  }
});
