/**
 * The rank rebuild's benchmark (issue 18: ≤ 5 s over a 100k mailbox, in the engine, off the
 * main thread), run in a Chromium dedicated worker over Chromium's IndexedDB: this module is
 * bundled into the worker (rank-rebuild-browser.ts), fills an account database with `count`
 * messages and times mail-store/rank-rebuild.ts over it.
 */
import type { MessageMeta } from '../../../shared/api/mail';
import { idbStoreFactory } from '../../../src-worker/db/idb-store';
import { MAIL_SCHEMA, type MailTable } from '../../../src-worker/db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../../../src-worker/db/store';
import { messageToRow } from '../../../src-worker/mail-store/mail-rows';
import { rebuildRanks, type RankRebuild } from '../../../src-worker/mail-store/rank-rebuild';

const FIRST = ['Anna', 'Bram', 'Chen', 'Dana', 'Emil', 'Fatima', 'Goran', 'Hana'];
const LAST = ['Kite', 'Stone', 'Reed', 'Marsh', 'Vale', 'Holm', 'Brook'];
/** People in the mailbox: each writes and is written to. */
export const RANK_PEOPLE = 2_000;

/** `count` messages: RANK_PEOPLE people write to the owner; one message in eight is in Sent (to one of them, another copied). */
export async function fillMailbox(store: LocalStore<MailTable>, count: number): Promise<void> {
  const person = (i: number) => ({ name: `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`, email: `person${i}@mail${i % 40}.test` });
  const me = { name: 'Me', email: 'me@bench.test' };
  const start = Date.UTC(2024, 0, 1);
  for (let from = 0; from < count; from += 5_000) {
    await withWrite(store, ['Message', 'Category'], async (tx) => {
      if (from === 0) {
        tx.queuePut('Category', { id: 'f-inbox', path: 'INBOX', name: 'Inbox', parent_id: null, special_use: 'inbox', total: 0, unread: 0 });
        tx.queuePut('Category', { id: 'f-sent', path: 'Sent', name: 'Sent', parent_id: null, special_use: 'sent', total: 0, unread: 0 });
      }
      for (let i = from; i < Math.min(count, from + 5_000); i++) {
        const sent = i % 8 === 0;
        const other = person((i * 7919) % RANK_PEOPLE);
        const meta: MessageMeta = {
          id: `m${String(i).padStart(7, '0')}`,
          threadId: `t${i}`,
          folderId: sent ? 'f-sent' : 'f-inbox',
          messageIdHeader: `<${i}@bench.test>`,
          subject: `Message ${i} about the quarterly plan`,
          from: [sent ? me : other],
          to: [sent ? other : me],
          cc: sent ? [person((i * 31) % RANK_PEOPLE)] : [],
          replyTo: [],
          date: start + i * 60_000,
          receivedAt: start + i * 60_000,
          unread: false,
          starred: false,
          answered: false,
          draft: false,
          keywords: [],
          size: 2_000,
          attachments: [],
          snippet: 'A line of text as a snippet holds, about a hundred characters long, give or take a few words.',
        };
        tx.queuePut('Message', messageToRow('bench', { meta, deleted: false, server: null }));
      }
    });
  }
}

/** What the worker is asked, one step at a time (the bench reads the machine's CPU time around each). */
export type RankStep = { readonly step: 'fill'; readonly count: number } | { readonly step: 'rebuild' } | { readonly step: 'read' };
export type RankStepResult = { readonly ms: number; readonly rebuilt?: RankRebuild } | { readonly error: string };

let open: Promise<LocalStore<MailTable>> | null = null;

/** One step over this global's IndexedDB: fill a fresh database, rebuild its ranks, or only read its messages (IndexedDB's share). */
export async function rankStep(request: RankStep): Promise<{ ms: number; rebuilt?: RankRebuild }> {
  if (request.step === 'fill') open = idbStoreFactory().open(`bench-ranks-${Date.now()}`, MAIL_SCHEMA);
  if (!open) throw new Error('fill first');
  const store = await open;
  const started = performance.now();
  if (request.step === 'fill') {
    await fillMailbox(store, request.count);
    return { ms: performance.now() - started };
  }
  if (request.step === 'rebuild') {
    const rebuilt = await rebuildRanks(store);
    return { ms: performance.now() - started, rebuilt };
  }
  // The rebuild's read of every Message row alone: one transaction, batches of 5,000.
  await withRead(store, ['Message'], async (tx) => {
    for (let after: string | null = null; ; ) {
      const rows = await tx.getAll('Message', { ...(after === null ? {} : { range: { lower: after, lowerOpen: true } }), limit: 5_000 });
      if (rows.length < 5_000) break;
      after = rows[rows.length - 1]!.id;
    }
  });
  return { ms: performance.now() - started };
}

/** In the worker: each message is a step; the answer is its result or { error }. */
const scope = globalThis as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage?: (value: unknown) => void; WorkerGlobalScope?: unknown };
if (typeof scope.WorkerGlobalScope !== 'undefined') {
  scope.onmessage = (event: MessageEvent<RankStep>) => {
    rankStep(event.data).then(
      (result) => scope.postMessage?.(result),
      (error: unknown) => scope.postMessage?.({ error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) }),
    );
  };
}
