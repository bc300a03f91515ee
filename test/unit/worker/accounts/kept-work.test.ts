import { describe, expect, test } from 'vitest';
import { keepWork, restoreInputs, type KeptWork } from '../../../../src-worker/accounts/kept-work';
import { sendsOfSavedDrafts, unsentDraftsOf, type UnsentDraft } from '../../../../src-worker/outbox/unsent-work';
import type { OutboxRow } from '../../../../src-worker/mail-store/outbox-rows';

const localId = (digit: string) => `local-${digit.repeat(8)}-${digit.repeat(4)}-${digit.repeat(4)}-${digit.repeat(4)}-${digit.repeat(12)}`;
const [LOCAL_A, LOCAL_B, LOCAL_C] = [localId('a'), localId('b'), localId('c')];
/** Keeps drafts (no sends of saved drafts) as a forced logout of account `accountId` would. */
const keepDrafts = (previous: KeptWork | null, params: { accountId: string; now: number; drafts: readonly UnsentDraft[] }) =>
  keepWork(previous, { emailAddress: 'ann@example.com', api: 'https://gw.test/api', accountId: params.accountId, cursor: 40, now: params.now, work: { drafts: params.drafts, sendsOfSavedDrafts: 0 } });
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
      save(1, LOCAL_A, 'first text'),
      { ...base, id: 'act', seq: 2, kind: 'action', command: { kind: 'markRead', accountId: '7', threadIds: ['1'], read: true }, effects: {}, thread_ids: ['1'], await_txn_id: null },
      save(3, LOCAL_A, 'second text'),
      save(4, LOCAL_B, 'thrown away'),
      { ...base, id: 'discard', seq: 5, kind: 'discardDraft', draft_id: LOCAL_B },
      save(6, LOCAL_C, 'to send'),
      { ...base, id: 'send', seq: 7, kind: 'send', draft_id: LOCAL_C, send_at: 10 },
      // A send whose draft the gateway already has: nothing local to keep (it is in Drafts on the server).
      { ...base, id: 'send2', seq: 8, kind: 'send', draft_id: '42', send_at: 10 },
    ];
    expect(unsentDraftsOf(rows).map(({ subject, wasSending, localId }) => ({ subject, wasSending, localId }))).toEqual([
      { subject: 'second text', wasSending: false, localId: LOCAL_A },
      { subject: 'to send', wasSending: true, localId: LOCAL_C },
    ]);
    // Only the send of a draft the gateway already has counts as a send of a saved draft (its text is in the server's Drafts).
    expect(sendsOfSavedDrafts(rows)).toBe(1);
    // A draft opened from Drafts is saved under the gateway's id: not one to restore under.
    expect(unsentDraftsOf([save(1, '42', 'edited')])[0]).not.toHaveProperty('localId');
  });
});

describe('kept work restored at sign-in', () => {
  const drafts = unsentDraftsOf([save(1, LOCAL_A, 'reply', { inReplyToMessageId: '12', attachmentIds: ['a'.repeat(32)] })]);
  const kept = keepDrafts(null, { accountId: '7', now: 5, drafts });

  test('on the same gateway account the reply link and files go with the draft, under the kept local id', () => {
    const { drafts: inputs, lostAttachments } = restoreInputs(kept, { accountId: '7', api: 'https://gw.test/api', cursor: 52 });
    expect(inputs).toEqual([{ accountId: '7', draftId: kept.drafts[0]!.draftId, to: [], cc: [], bcc: [], subject: 'reply', html: '<p>reply</p>', inReplyToMessageId: '12', attachmentIds: ['a'.repeat(32)] }]);
    expect(lostAttachments).toBe(0);
  });

  test('on a gateway with fresh data (another account id) the ids it would refuse are left out and the lost files counted', () => {
    const { drafts: inputs, lostAttachments } = restoreInputs(kept, { accountId: '1', api: 'https://gw.test/api', cursor: 52 });
    expect(inputs[0]).not.toHaveProperty('inReplyToMessageId');
    expect(inputs[0]).toMatchObject({ accountId: '1', subject: 'reply', attachmentIds: [] });
    expect(lostAttachments).toBe(1);
  });

  test('a gateway with fresh data under the same account id (its transaction log behind the kept session’s): the links are left out too', () => {
    const { drafts: inputs, lostAttachments } = restoreInputs(kept, { accountId: '7', api: 'https://gw.test/api', cursor: 3 });
    expect(inputs[0]).not.toHaveProperty('inReplyToMessageId');
    expect(inputs[0]).toMatchObject({ accountId: '7', subject: 'reply', attachmentIds: [] });
    expect(lostAttachments).toBe(1);
  });

  test('a second forced logout before signing in keeps both sessions’ drafts', () => {
    const later = unsentDraftsOf([save(1, LOCAL_B, 'another'), save(2, '42', 'opened from Drafts')]);
    const again = keepDrafts(kept, { accountId: '1', now: 9, drafts: later });
    expect(again.drafts.map(({ accountId, subject }) => ({ accountId, subject }))).toEqual([
      { accountId: '7', subject: 'reply' },
      { accountId: '1', subject: 'another' },
      { accountId: '1', subject: 'opened from Drafts' },
    ]);
    expect(again.drafts.map((draft) => draft.draftId).slice(0, 2)).toEqual([LOCAL_A, LOCAL_B]);
    // The gateway's id is not restored under: a new local one.
    expect(again.drafts[2]!.draftId).toMatch(/^local-/);
    // The same draft kept again (a restore that did not finish) is its newer text, once.
    expect(keepDrafts(kept, { accountId: '7', now: 9, drafts: unsentDraftsOf([save(5, LOCAL_A, 'newer')]) }).drafts.map((draft) => draft.subject)).toEqual(['newer']);
  });
});
