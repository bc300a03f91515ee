/**
 * Issue 17 point 4, the priority inbox: scoring 10,000 new Inbox messages in the engine — one
 * scan of src-worker/priority/priority-scan.ts, as after a delta page: the Inbox's threads
 * newer than the account's mark read in batches, their messages and senders' Contact rows
 * read, every message scored, the important threads handed to the label command (counted
 * here, not sent). Run in Node over the engine's in-memory store: the figure is the engine's
 * reads and scoring, not IndexedDB's.
 */
import type { MessageMeta } from '../../../shared/api/mail';
import { systemClock } from '../../../shared/clock';
import { rankGrowth } from '../../../shared/contact-rank';
import { MAIL_SCHEMA } from '../../../src-worker/db/mail-schema';
import { MemoryDatabases } from '../../../src-worker/db/memory-store';
import { withWrite } from '../../../src-worker/db/store';
import { messageToRow, threadToRow } from '../../../src-worker/mail-store/mail-rows';
import { addPending } from '../../../src-worker/mail-store/settings-rows';
import { summarizeThread } from '../../../src-worker/mail-store/thread-summary';
import { PriorityScanner } from '../../../src-worker/priority/priority-scan';
import { repeat, type FigureSpec, type Scenario } from '../lib/scenario';

const SCORING: FigureSpec = {
  key: '17.priority-score-10k',
  item: 17,
  what: 'Priority inbox: 10,000 new Inbox messages scored in the engine (one scan: reads, inputs, scores, marks)',
  unit: 'ms',
  budget: { text: '≤ 1 s', limit: 1000 },
};

const MESSAGES = 10_000;
const NOW = Date.UTC(2026, 10, 29, 12);
const senderOf = (i: number) => (i % 3 === 0 ? `news${i % 40}@lists${i % 7}.example` : `person${i % 800}@mail.example`);

function meta(i: number): MessageMeta {
  const email = senderOf(i);
  const at = NOW - (MESSAGES - i) * 30_000; // the last ~3.5 days, one every 30 s
  return {
    id: String(i + 1),
    threadId: `t${i}`,
    folderId: 'inbox',
    messageIdHeader: `<m${i}@bench.example>`,
    subject: `Message ${i}`,
    from: [{ name: 'Sender', email }],
    to: [{ name: 'Me', email: i % 5 === 0 ? 'team@bench.example' : 'me@bench.example' }],
    cc: [],
    replyTo: [],
    date: at,
    receivedAt: at,
    unread: true,
    starred: false,
    answered: false,
    draft: false,
    keywords: [],
    size: 2000,
    attachments: [],
    snippet: 'Hello',
    ...(i % 3 === 0 ? { unsubscribe: { http: `https://lists${i % 7}.example/u`, mailto: null, oneClick: true } } : {}),
  };
}

export const priority: Scenario = {
  id: 'priority',
  title: 'Priority inbox: scoring 10,000 new messages in the engine (issue 17)',
  estimateSec: 30,
  figures: [SCORING],
  async run(ctx) {
    const databases = new MemoryDatabases();
    const samples: number[] = [];
    let marked = 0;
    await repeat(ctx, 'scan', ctx.quick ? 2 : 5, async (run) => {
      // A fresh store each run: a scan records how far it scored, and scores nothing twice.
      const store = await databases.open(`bench-${run}`, MAIL_SCHEMA);
      await withWrite(store, ['Message', 'Thread', 'Category', 'Contact', 'JSONBlob'], async (tx) => {
        await tx.put('Category', { id: 'inbox', path: 'INBOX', name: 'INBOX', special_use: 'inbox', total: 0, unread: 0 });
        await tx.put('Category', { id: 'sent', path: 'Sent', name: 'Sent', special_use: 'sent', total: 0, unread: 0 });
        for (let i = 0; i < MESSAGES; i++) {
          const message = meta(i);
          tx.queuePut('Message', messageToRow('bench', { meta: message, deleted: false, server: null }));
          tx.queuePut('Thread', threadToRow('bench', { summary: summarizeThread(message.threadId, [message])!, server: null }));
        }
        // A few hundred people the person writes to (compose rank) and hears from.
        // Ranks are stored undecayed (shared/contact-rank.ts): a few exchanges as of now.
        const growth = rankGrowth(NOW);
        for (let p = 0; p < 800; p += 3) tx.queuePut('Contact', { id: `person${p}@mail.example`, email: `person${p}@mail.example`, mailComposeRank: 3 * growth, mailSearchRank: 5 * growth });
        await addPending(tx, { priorityInbox: true });
      });
      const scanner = new PriorityScanner({
        open: async () => store,
        accountAddresses: async () => ['me@bench.example'],
        active: () => true,
        settled: async () => true,
        mark: async (_accountId, threadIds) => void (marked += threadIds.length),
        savePreferences: async () => undefined,
        clock: { ...systemClock, now: () => NOW },
      });
      const started = performance.now();
      const result = await scanner.scan('bench');
      const took = performance.now() - started;
      if (result.scored !== MESSAGES) throw new Error(`scored ${result.scored} of ${MESSAGES}`);
      samples.push(took);
      return took;
    });
    ctx.record(SCORING, { 1: samples }, `${MESSAGES} Inbox messages in ${MESSAGES} threads from ${new Set(Array.from({ length: MESSAGES }, (_, i) => senderOf(i))).size} senders; ${Math.round(marked / samples.length)} threads marked important per scan`);
  },
};
