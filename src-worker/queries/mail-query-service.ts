/**
 * MailQueryService (shared/worker-mail-api.ts): what tabs read. Everything comes from the
 * account databases the sync fills; only bodies (and threads not synced yet) go to the
 * gateway, and those are kept once fetched.
 */
import type { SuggestedAddress } from '../../shared/worker-mail-api';
import type {
  AccountCounts,
  BodyProgress,
  BodyView,
  FolderView,
  ListPatch,
  ListScope,
  ListSnapshot,
  ListWindow,
  MailQueryService,
  SyncStatus,
  ThreadPush,
  ThreadSnapshot,
  ThreadView,
} from '../../shared/worker-mail-api';
import { withRead } from '../db/store';
import { folderFromRow } from '../mail-store/mail-rows';
import type { SyncStatusFeed } from '../sync/sync-status-feed';
import { FOLDER_UNREAD_TABLES, withPendingUnread } from './folder-unread';
import type { ListSubscriptions } from './list-subscriptions';
import type { ThreadSubscriptions } from './thread-subscriptions';
import type { MessageReads } from './message-reads';
import {
  accountParamsSchema,
  accountsParamsSchema,
  attachmentParamsSchema,
  bodyParamsSchema,
  moveWindowParamsSchema,
  parseParams,
  prefetchParamsSchema,
  prefetchNearParamsSchema,
  proxyImagesParamsSchema,
  subscriptionParamsSchema,
  suggestParamsSchema,
  threadParamsSchema,
  watchParamsSchema,
} from './query-params';
import type { OpenStore } from './thread-list-reader';
import { BodyPrefetch } from './body-prefetch';
import { NearPrefetch } from './near-prefetch';
import type { SuggestionIndexes } from './suggestion-indexes';
import { orderFolders } from './views';

export interface MailQueryServiceDeps {
  readonly open: OpenStore;
  readonly lists: ListSubscriptions;
  /** Live threads (watchThread); absent in engines that keep no thread open (tests of other parts). */
  readonly threads?: ThreadSubscriptions;
  readonly reads: MessageReads;
  /** Recipient suggestions, kept in memory per account. */
  readonly suggestions: SuggestionIndexes;
  readonly syncStatus: SyncStatusFeed;
  /** Told after every thread list answered or failed (the engine's start-up gate waits for the first). */
  readonly onListAnswered?: () => void;
  /** Whether an account has caught up with the gateway once (AccountCounts.complete); absent: always. */
  readonly settled?: (accountId: string) => Promise<boolean>;
  /** Resolves once an account has caught up with the gateway (its first sync done); absent: at once. */
  readonly whenSettled?: (accountId: string) => Promise<void>;
}

export class EngineMailQueries implements MailQueryService {
  /** "Keep recent mail offline" (body-prefetch.ts): made on first use, one run for every tab. */
  private bodyPrefetch: BodyPrefetch | null = null;
  /** When a tab last asked for a thread, a body or a list window: the prefetch waits a moment after it. */
  private lastAsked = 0;
  /** Asks being answered now (the prefetch waits for none). */
  private asking = 0;
  /** Runs a person's ask; the prefetch yields while it runs and for a moment after it ends. */
  private async asked<T>(answer: () => Promise<T>): Promise<T> {
    this.lastAsked = Date.now();
    this.asking++;
    try {
      return await answer();
    } finally {
      this.asking--;
      this.lastAsked = Date.now();
    }
  }

  constructor(private readonly deps: MailQueryServiceDeps) {}

  async prefetchBodies(params: { accountIds: readonly string[]; days: number }, onProgress: (progress: BodyProgress) => void): Promise<BodyProgress> {
    const parsed = parseParams(prefetchParamsSchema, params);
    this.bodyPrefetch ??= new BodyPrefetch({
      open: this.deps.open,
      fetchBody: (body) => this.deps.reads.body(body),
      saveData: () => (globalThis.navigator as { connection?: { saveData?: boolean } } | undefined)?.connection?.saveData === true,
      lastAsked: () => this.lastAsked,
      asking: () => this.asking,
      ...(this.deps.whenSettled ? { firstSync: this.deps.whenSettled } : {}),
    });
    return this.bodyPrefetch.run(parsed, onProgress);
  }

  /** The bodies about to be read (near-prefetch.ts); made on first use, one queue for every tab. */
  private nearPrefetch: NearPrefetch | null = null;

  async prefetchNear(params: { threads: readonly { accountId: string; threadId: string }[] }): Promise<number> {
    const { threads } = parseParams(prefetchNearParamsSchema, params);
    this.nearPrefetch ??= new NearPrefetch({ open: this.deps.open, fetchBody: (body) => this.deps.reads.body(body) });
    return this.nearPrefetch.ask(threads);
  }

  async watchThreadList(params: { scope: ListScope; window: ListWindow }, onPatch: (patch: ListPatch) => void): Promise<ListSnapshot> {
    try {
      return await this.deps.lists.watch(parseParams(watchParamsSchema, params), onPatch);
    } finally {
      this.deps.onListAnswered?.();
    }
  }

  moveWindow(params: { subscriptionId: string; window: ListWindow }): Promise<ListSnapshot> {
    return this.asked(() => this.deps.lists.move(parseParams(moveWindowParamsSchema, params)));
  }

  async unwatch(params: { subscriptionId: string }): Promise<void> {
    const { subscriptionId } = parseParams(subscriptionParamsSchema, params);
    if (!this.deps.threads?.unwatch(subscriptionId)) this.deps.lists.unwatch(subscriptionId);
  }

  async watchThread(params: { accountId: string; threadId: string }, onPush: (push: ThreadPush) => void): Promise<ThreadSnapshot> {
    const parsed = parseParams(threadParamsSchema, params);
    const threads = this.deps.threads;
    if (!threads) return this.asked(async () => ({ subscriptionId: '', thread: await this.deps.reads.thread(parsed) }));
    return this.asked(() => threads.watch(parsed, onPush));
  }

  getThread(params: { accountId: string; threadId: string }): Promise<ThreadView> {
    return this.asked(() => this.deps.reads.thread(parseParams(threadParamsSchema, params)));
  }

  getBody(params: { accountId: string; messageId: string; whole?: boolean }): Promise<BodyView> {
    return this.asked(() => this.deps.reads.body(parseParams(bodyParamsSchema, params)));
  }

  getAttachment(params: { accountId: string; messageId: string; index: number }): Promise<Blob> {
    return this.deps.reads.attachment(parseParams(attachmentParamsSchema, params));
  }

  previewAttachment(params: { accountId: string; messageId: string; index: number }): Promise<{ url: string; expiresAt: number }> {
    return this.deps.reads.previewLink(parseParams(attachmentParamsSchema, params));
  }

  answerReceipt(params: { accountId: string; messageId: string; send: boolean }): Promise<{ readonly sent: boolean }> {
    const { accountId, messageId } = parseParams(bodyParamsSchema, params);
    return this.deps.reads.answerReceipt({ accountId, messageId, send: params.send === true });
  }

  proxyRemoteImages(params: { accountId: string; urls: readonly string[] }): Promise<Readonly<Record<string, string>>> {
    return this.deps.reads.signImages(parseParams(proxyImagesParamsSchema, params));
  }

  async listFolders(params: { accountId: string }): Promise<readonly FolderView[]> {
    const { accountId } = parseParams(accountParamsSchema, params);
    const folders = await withRead(await this.deps.open(accountId), FOLDER_UNREAD_TABLES, async (tx) => withPendingUnread(tx, (await tx.getAll('Category')).map(folderFromRow)));
    return orderFolders(accountId, folders);
  }

  async counts(params: { accountIds: readonly string[] }): Promise<readonly AccountCounts[]> {
    const { accountIds } = parseParams(accountsParamsSchema, params);
    return Promise.all(
      accountIds.map(async (accountId) => {
        const inboxUnread = await withRead(await this.deps.open(accountId), ['Category', 'ThreadCount'], async (tx) => {
          const inbox = (await tx.getAll('Category')).map(folderFromRow).find((folder) => folder.specialUse === 'inbox');
          const count = inbox ? await tx.get('ThreadCount', inbox.id) : undefined;
          return Number(count?.unread ?? 0);
        });
        const complete = this.deps.settled ? await this.deps.settled(accountId) : true;
        return { accountId, inboxUnread, complete };
      }),
    );
  }

  async suggestAddresses(params: { accountIds: readonly string[]; prefix: string; limit: number }): Promise<readonly SuggestedAddress[]> {
    return this.deps.suggestions.suggest(parseParams(suggestParamsSchema, params));
  }

  async watchSync(onStatus: (status: SyncStatus) => void): Promise<{ subscriptionId: string }> {
    return { subscriptionId: this.deps.syncStatus.watch(onStatus) };
  }

  async unwatchSync(params: { subscriptionId: string }): Promise<void> {
    this.deps.syncStatus.unwatch(parseParams(subscriptionParamsSchema, params).subscriptionId);
  }
}
