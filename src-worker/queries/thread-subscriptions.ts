/**
 * Live threads: the conversation a tab has open, pushed again after every committed change
 * that names it (a flag, a new message, a message moved in or out, a pending command, its
 * settlement or revert), and `gone` once it is no more. The tab stops re-reading the
 * thread itself when its row changes; like the live lists (list-subscriptions.ts), a
 * refresh is single-flight and changes arriving meanwhile fold into one more.
 */
import type { ThreadPush, ThreadSnapshot, ThreadView } from '../../shared/worker-mail-api';
import type { ChangeFeed, MailChange } from '../mail-store/change-feed';
import { pushToTab, refreshOnce } from './live-push';
import type { MessageReads } from './message-reads';

interface Subscription {
  readonly id: string;
  readonly accountId: string;
  readonly threadId: string;
  readonly onPush: (push: ThreadPush) => unknown;
  /** The view last sent, as JSON: a change that leaves the thread as it was pushes nothing. */
  shown: string;
  /** A change named the thread itself (not only "everything"): a missing row then means it was deleted. */
  named: boolean;
  running: Promise<void> | null;
  again: boolean;
}

export interface ThreadSubscriptionsDeps {
  readonly reads: Pick<MessageReads, 'thread' | 'localThread'>;
  readonly changes: ChangeFeed;
  readonly onError?: (error: unknown) => void;
  /** A tab that has not taken a push in this long is gone (a closed port never answers). */
  readonly pushTimeoutMs?: number;
}

const PUSH_TIMEOUT_MS = 60_000;

export class ThreadSubscriptions {
  private readonly subscriptions = new Map<string, Subscription>();

  constructor(private readonly deps: ThreadSubscriptionsDeps) {
    deps.changes.subscribe((change) => this.changed(change));
  }

  /** The thread now (as getThread reads it, the gateway for one not synced here), then its changes. */
  async watch(params: { accountId: string; threadId: string }, onPush: (push: ThreadPush) => unknown): Promise<ThreadSnapshot> {
    const thread = await this.deps.reads.thread(params);
    const subscription: Subscription = { id: crypto.randomUUID(), ...params, onPush, shown: JSON.stringify(thread), named: false, running: null, again: false };
    this.subscriptions.set(subscription.id, subscription);
    return { subscriptionId: subscription.id, thread };
  }

  /** Ends a thread subscription; false when the id is not one (a list's, say). */
  unwatch(subscriptionId: string): boolean {
    return this.subscriptions.delete(subscriptionId);
  }

  get size(): number {
    return this.subscriptions.size;
  }

  private changed(change: MailChange): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.accountId !== change.accountId) continue;
      const named = change.threadIds.includes(subscription.threadId);
      if (!named && !change.everything) continue;
      subscription.named ||= named;
      this.refresh(subscription);
    }
  }

  private refresh(subscription: Subscription): void {
    refreshOnce(subscription, () => this.update(subscription), {
      live: () => this.subscriptions.has(subscription.id),
      ...(this.deps.onError ? { onError: this.deps.onError } : {}),
    });
  }

  private async update(subscription: Subscription): Promise<void> {
    const named = subscription.named;
    subscription.named = false;
    const local = await this.deps.reads.localThread(subscription);
    if (!this.subscriptions.has(subscription.id)) return;
    // Not here at all: deleted when a change named it; after a cache clear ("everything") it comes back with the sync.
    if (local === 'gone' || (local === null && named)) {
      this.subscriptions.delete(subscription.id);
      await this.push(subscription, { subscriptionId: subscription.id, kind: 'gone' });
      return;
    }
    if (local === null) return;
    const shown = JSON.stringify(local);
    if (shown === subscription.shown) return;
    subscription.shown = shown;
    await this.push(subscription, { subscriptionId: subscription.id, kind: 'changed', thread: local satisfies ThreadView });
  }

  /** A tab that never answers is gone: its subscription ends. */
  private async push(subscription: Subscription, push: ThreadPush): Promise<void> {
    if (!(await pushToTab(() => subscription.onPush(push), this.deps.pushTimeoutMs ?? PUSH_TIMEOUT_MS))) this.subscriptions.delete(subscription.id);
  }
}
