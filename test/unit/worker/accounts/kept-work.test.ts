import { describe, expect, test } from 'vitest';
import { keepDrafts, restoreInputs } from '../../../../src-worker/accounts/kept-work';
import { unsentDraftsOf } from '../../../../src-worker/outbox/unsent-work';
import type { OutboxRow } from '../../../../src-worker/outbox/outbox-rows';

const base = { account_id: '7', status: 'pending' as const, idempotency_key: 'k', attempts: 0, created_at: 1 };
const save = (seq: number, draftId: string, subject: string, extra: { inReplyToMessageId?: string; attachmentIds?: string[] } = {}): OutboxRow => ({
  ...base,
  id: `save-${seq}`,
  seq,
  kind: 'saveDraft',
  draft_id: draftId,
  draft: { accountId: '7', draftId, to: [], cc: [], bcc: [], subject, html: `<p>${subject}</p>`, attachmentIds: extra.attachmentIds ?? [], ...(extra.inReplyToMessageId ? { inReplyToMessageId: extra.inReplyToMessageId } : {}) },
});

describe('unsent drafts read from the outbox', () => {
  test('the newest save of each draft, sends marked, discarded drafts and other commands left out', () => {
    const rows: OutboxRow[] = [
      save(1, 'local-a', 'first text'),
      { ...base, id: 'act', seq: 2, kind: 'action', command: { kind: 'markRead', accountId: '7', threadIds: ['1'], read: true }, effects: {}, thread_ids: ['1'], await_txn_id: null },
      save(3, 'local-a', 'second text'),
      save(4, 'local-b', 'thrown away'),
      { ...base, id: 'discard', seq: 5, kind: 'discardDraft', draft_id: 'local-b' },
      save(6, 'local-c', 'to send'),
      { ...base, id: 'send', seq: 7, kind: 'send', draft_id: 'local-c', send_at: 10 },
      // A send whose draft the gateway already has: nothing local to keep (it is in Drafts on the server).
      { ...base, id: 'send2', seq: 8, kind: 'send', draft_id: '42', send_at: 10 },
    ];
    expect(unsentDraftsOf(rows).map(({ subject, wasSending }) => ({ subject, wasSending }))).toEqual([
      { subject: 'second text', wasSending: false },
      { subject: 'to send', wasSending: true },
    ]);
  });
});

describe('kept work restored at sign-in', () => {
  const drafts = unsentDraftsOf([save(1, 'local-a', 'reply', { inReplyToMessageId: '12', attachmentIds: ['a'.repeat(32)] })]);
  const kept = keepDrafts(null, { emailAddress: 'ann@example.com', accountId: '7', api: 'https://gw.test/api', now: 5, drafts });

  test('on the same gateway account the reply link and files go with the draft, under the kept local id', () => {
    const { drafts: inputs, lostAttachments } = restoreInputs(kept, { accountId: '7', api: 'https://gw.test/api' });
    expect(inputs).toEqual([{ accountId: '7', draftId: kept.drafts[0]!.draftId, to: [], cc: [], bcc: [], subject: 'reply', html: '<p>reply</p>', inReplyToMessageId: '12', attachmentIds: ['a'.repeat(32)] }]);
    expect(lostAttachments).toBe(0);
  });

  test('on a gateway with fresh data (another account id) the ids it would refuse are left out and the lost files counted', () => {
    const { drafts: inputs, lostAttachments } = restoreInputs(kept, { accountId: '1', api: 'https://gw.test/api' });
    expect(inputs[0]).not.toHaveProperty('inReplyToMessageId');
    expect(inputs[0]).toMatchObject({ accountId: '1', subject: 'reply', attachmentIds: [] });
    expect(lostAttachments).toBe(1);
  });

  test('a second forced logout before signing in keeps both sessions’ drafts', () => {
    const again = keepDrafts(kept, { emailAddress: 'ann@example.com', accountId: '1', api: 'https://gw.test/api', now: 9, drafts });
    expect(again.drafts.map((draft) => draft.accountId)).toEqual(['7', '1']);
    expect(new Set(again.drafts.map((draft) => draft.draftId)).size).toBe(2);
  });
});
