/**
 * The bodies a person is about to read (issue 13 point 4): of the threads around the
 * list's cursor and on screen, the messages an opening shows expanded (the unread ones and
 * the newest, as the conversation view expands them), fetched before they are opened, so
 * `j` then Enter never waits on IMAP. MessageReads.body fetches them: the text and HTML
 * parts and their small inline images, never attachments, into MessageBody, the cache an
 * opening reads.
 *
 * Bounded: a few threads per ask, a few messages per thread, one fetch at a time. A newer
 * ask replaces what is left of the one before (the cursor has moved on). The first sign of
 * no network ends the run; the next ask tries again.
 */
import { TernError } from '../../shared/errors';
import { only, withRead } from '../db/store';
import { messageFromRow } from '../mail-store/mail-rows';
import type { OpenStore } from './thread-list-reader';

/** Threads taken from one ask (the tab lists the cursor's first, then its neighbours). */
export const NEAR_THREADS = 12;
/** Messages fetched per thread at most: its newest ones that an opening expands. */
export const NEAR_MESSAGES_PER_THREAD = 3;

export interface NearThread {
  readonly accountId: string;
  readonly threadId: string;
}

interface WantedBody {
  readonly accountId: string;
  readonly messageId: string;
}

export interface NearPrefetchDeps {
  readonly open: OpenStore;
  /** Fetches and caches one body (MessageReads.body: one fetch per body however many ask). */
  readonly fetchBody: (params: { accountId: string; messageId: string }) => Promise<unknown>;
}

/** The bodies an opening of these threads would show that this device does not keep, in the threads' order. */
export async function missingNearBodies(open: OpenStore, threads: readonly NearThread[]): Promise<WantedBody[]> {
  const byAccount = new Map<string, string[]>();
  for (const { accountId, threadId } of threads) byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), threadId]);
  const wanted = new Map<string, WantedBody[]>();
  for (const [accountId, threadIds] of byAccount) {
    await withRead(await open(accountId), ['Message', 'MessageBody'], async (tx) => {
      for (const threadId of threadIds) {
        const messages = (await tx.getAll('Message', { index: 'thread_id', range: only(threadId) }))
          .map(messageFromRow)
          .filter((message) => !message.deleted && !message.meta.draft)
          .sort((a, b) => b.meta.date - a.meta.date || Number(b.meta.id) - Number(a.meta.id));
        // What the conversation view expands (message-format.ts initiallyExpanded): the newest and the unread.
        const shown = messages.filter((message, i) => i === 0 || message.meta.unread).slice(0, NEAR_MESSAGES_PER_THREAD);
        const kept = await Promise.all(shown.map((message) => tx.count('MessageBody', { range: only(message.meta.id) })));
        wanted.set(`${accountId}:${threadId}`, shown.filter((_, i) => kept[i] === 0).map((message) => ({ accountId, messageId: message.meta.id })));
      }
    });
  }
  return threads.flatMap(({ accountId, threadId }) => wanted.get(`${accountId}:${threadId}`) ?? []);
}

const isNetworkFailure = (error: unknown) => error instanceof TernError && (error.detail as { network?: boolean } | undefined)?.network === true;

export class NearPrefetch {
  private queue: WantedBody[] = [];
  private running: Promise<void> | null = null;
  /** Each ask's number: a slower read of an older ask does not replace a newer one's queue. */
  private asks = 0;

  constructor(private readonly deps: NearPrefetchDeps) {}

  /** Replaces the bodies still to fetch with these threads' (at most NEAR_THREADS); resolves with how many are to fetch. */
  async ask(threads: readonly NearThread[]): Promise<number> {
    const mine = ++this.asks;
    const wanted = await missingNearBodies(this.deps.open, threads.slice(0, NEAR_THREADS));
    if (mine !== this.asks) return 0;
    this.queue = [...wanted];
    if (wanted.length > 0) this.running ??= this.drain().finally(() => (this.running = null));
    return wanted.length;
  }

  /** Resolves when the queue is empty (tests). */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      try {
        await this.deps.fetchBody(next);
      } catch (error) {
        if (isNetworkFailure(error)) {
          this.queue = [];
          return;
        }
        // One body the gateway refuses (gone, too large) does not stop the others.
      }
    }
  }
}
