/**
 * Issue 17 point 1, labels: filtering the list by a label — what a click on a label in the
 * sidebar asks the engine for its first screen of rows (queries/thread-list-reader.ts: the
 * count and the newest keys from the `email_label_timestamps` index, then those rows read),
 * over an account of 100,000 cached threads of which one in ten has the label. Run in Node
 * over fake-indexeddb — the engine's own code over a JavaScript IndexedDB, slower per call
 * than Chromium's, so the figure errs high — not a page: no painting is in it.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { MessageMeta } from '../../../shared/api/mail';
import { MAIL_SCHEMA } from '../../../src-worker/db/mail-schema';
import { idbStoreFactory } from '../../../src-worker/db/idb-store';
import { withWrite } from '../../../src-worker/db/store';
import { threadToRow } from '../../../src-worker/mail-store/mail-rows';
import { summarizeThread } from '../../../src-worker/mail-store/thread-summary';
import { ThreadListReader } from '../../../src-worker/queries/thread-list-reader';
import { repeat, type FigureSpec, type Scenario } from '../lib/scenario';

const FILTER: FigureSpec = {
  key: '17.label-filter-100k',
  item: 17,
  what: 'Filter by a label over 100,000 cached threads (10,000 with it): the first 100 rows read by the engine (fake-indexeddb)',
  unit: 'ms',
  budget: { text: '≤ 50 ms', limit: 50 },
};

const THREADS = 100_000;
const KEYWORD = '$label_projects';
const START = Date.UTC(2026, 0, 1);

function meta(i: number): MessageMeta {
  const at = START + i * 60_000;
  return {
    id: String(i + 1),
    threadId: `t${i}`,
    folderId: i % 4 === 0 ? 'archive' : 'inbox',
    messageIdHeader: `<m${i}@bench.example>`,
    subject: `Message ${i} about the plans`,
    from: [{ name: 'Sender', email: `person${i % 900}@mail.example` }],
    to: [{ name: 'Me', email: 'me@bench.example' }],
    cc: [],
    replyTo: [],
    date: at,
    receivedAt: at,
    unread: i % 3 === 0,
    starred: false,
    answered: false,
    draft: false,
    keywords: i % 10 === 0 ? [KEYWORD] : [],
    size: 2000,
    attachments: [],
    snippet: 'Hello',
  };
}

export const labelFilter: Scenario = {
  id: 'label-filter',
  title: 'Labels: the list filtered by a label over 100,000 cached threads (issue 17)',
  estimateSec: 60,
  figures: [FILTER],
  async run(ctx) {
    const store = await idbStoreFactory(new IDBFactory()).open('bench-labels', MAIL_SCHEMA);
    for (let from = 0; from < THREADS; from += 5_000) {
      await withWrite(store, ['Thread'], async (tx) => {
        for (let i = from; i < from + 5_000; i++) {
          const message = meta(i);
          tx.queuePut('Thread', threadToRow('bench', { summary: summarizeThread(message.threadId, [message])!, server: null }));
        }
      });
    }
    ctx.progress(`${THREADS} threads stored`);
    // A label's list reads the Thread index alone, never the search index.
    const unused = (): never => {
      throw new Error('a label list asked the search index');
    };
    const reader = new ThreadListReader(async () => store, { search: unused, senderThreads: unused });
    const samples = await repeat(ctx, 'label window', ctx.quick ? 5 : 20, async () => {
      const started = performance.now();
      const read = await reader.window({ kind: 'label', accountId: 'bench', label: KEYWORD }, { offset: 0, limit: 100 });
      const rows = await reader.rows(read.keys);
      const took = performance.now() - started;
      if (read.total !== THREADS / 10 || rows.size !== 100) throw new Error(`the label lists ${read.total} threads, ${rows.size} rows read`);
      return took;
    });
    ctx.record(FILTER, { 1: samples }, `ThreadListReader.window for the label (count + the newest 100 keys from email_label_timestamps) and ThreadListReader.rows for them, as the list's first screen; ${THREADS.toLocaleString('en')} Thread rows, every tenth labelled.`);
  },
};
