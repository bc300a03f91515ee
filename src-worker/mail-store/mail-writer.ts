/**
 * Every write of mail rows goes through here, inside one write transaction: delta pages,
 * optimistic commands, their confirmation and their revert. One place keeps the three
 * things that must never drift apart: pending changes laid over server state, the
 * per-folder thread counts (ThreadCount), and the set of threads the live lists must
 * look at again.
 *
 * A delta page carries a thousand rows, so the writer never waits on IndexedDB per row:
 * `prefetch` reads every Message and Thread row a page touches in one batch, the writer
 * keeps them in memory from then on, Message rows are queued as they change (outbox code
 * in the same transaction reads them through indexes) and Thread rows once, at `finish`,
 * however often the page changed them. The batched reads are row-cache.ts, the counts
 * folder-counts.ts, the extra Thread columns thread-columns.ts.
 */
import type { DeltaChange } from '../../shared/api/delta';
import type { Folder, MessageMeta, ThreadSummary } from '../../shared/api/mail';
import type { MailTable } from '../db/mail-schema';
import { only, type StoredRow, type WriteTransaction } from '../db/store';
import { FolderCounts } from './folder-counts';
import { applyEffects } from '../../shared/command-effects';
import type { PendingEffects } from './outbox-rows';
import { ContactTally } from './contact-tally';
import { RowCache } from './row-cache';
import { GIVEN_ATTACHMENTS, PAPERCLIP, UNREAD_FOLDERS, factsOf, paperclipOf, unreadFoldersOf, type MessageFacts } from './thread-columns';
import { folderToRow, messageFromRow, messageToRow, threadFromRow, threadToRow, type LocalMessage, type LocalThread } from './mail-rows';
import { emptiedThread, summarizeThread } from './thread-summary';
import { withRaisedMark } from '../../shared/raised-mark';

/** Tables a writer may touch; a transaction using one must cover them all. */
export const MAIL_WRITE_TABLES = ['Thread', 'Message', 'MessageBody', 'Category', 'ThreadCount', 'Contact', 'ProviderSyncbackRequest', 'JSONBlob'] as const satisfies readonly MailTable[];

export class MailWriter {
  /** Threads whose row may have changed: what live lists re-read. */
  readonly threadIds = new Set<string>();
  foldersChanged = false;
  /** Threads to settle at the end: their server state or their messages changed under a pending command. */
  private readonly dirty = new Set<string>();
  /** Server summaries received in this transaction for threads that are settled at the end. */
  private readonly threadBases = new Map<string, ThreadSummary>();
  /** Threads whose messages changed: their per-folder unread state and paperclip are recomputed at the end. */
  private readonly unreadDirty = new Set<string>();
  /** Messages as written in this transaction: most recounts need no read (a page carries a thread with its messages). */
  private readonly written = new Map<string, MessageFacts>();
  private readonly counts: FolderCounts;
  private readonly contacts: ContactTally;
  /** Rows as this transaction has them, read in batches and kept current by the writes. */
  private readonly rows: RowCache;
  /**
   * Message rows of conversations that also have messages from earlier pages, read by
   * `prefetch` before this transaction wrote any: recounts lay this transaction's own
   * messages over them instead of reading again behind a thousand writes.
   */
  private readonly threadMessagesAhead = new Map<string, StoredRow[]>();
  /** Thread rows changed in memory, put once by `finish`. */
  private readonly threadsToPut = new Set<string>();
  /** Messages this transaction wrote (null: removed), for the search index. */
  private readonly messageChanges = new Map<string, LocalMessage | null>();

  constructor(
    private readonly tx: WriteTransaction<MailTable>,
    private readonly accountId: string,
    readonly pending: PendingEffects,
  ) {
    this.contacts = new ContactTally(tx);
    this.rows = new RowCache(tx);
    this.counts = new FolderCounts(tx);
  }

  /** Messages written (and removed) in this transaction, as they are stored now. */
  get messages(): { readonly put: LocalMessage[]; readonly removed: string[] } {
    const put: LocalMessage[] = [];
    const removed: string[] = [];
    for (const [id, message] of this.messageChanges) {
      if (message) put.push(message);
      else removed.push(id);
    }
    return { put, removed };
  }

  /** Contact rows (people seen, with their ranks) written by `finish`, as stored. */
  get contactRows(): StoredRow[] {
    return [...this.contacts.written.values()];
  }

  /**
   * Reads ahead, in three short rounds of requests, every row the changes will look at: their
   * messages and threads, the threads their messages leave, the earlier messages of those
   * conversations, the folder counts and the people they name. Call it before the changes;
   * it is optional (without it each row is read when needed), but with it the rest of the
   * transaction waits on no read.
   */
  async prefetch(changes: readonly DeltaChange[]): Promise<void> {
    const messageIds: string[] = [];
    const threadIds: string[] = [];
    const upserted: MessageMeta[] = [];
    /** The messages of each thread the page carries, as the gateway lists them. */
    const listed = new Map<string, readonly string[]>();
    const threadsDeleted = new Set<string>();
    for (const change of changes) {
      if (change.object === 'message') {
        messageIds.push(change.op === 'delete' ? change.objectId : change.data.id);
        if (change.op === 'upsert') {
          threadIds.push(change.data.threadId);
          upserted.push(change.data);
        }
      } else if (change.object === 'thread') {
        threadIds.push(change.op === 'delete' ? change.objectId : change.data.id);
        if (change.op === 'upsert') listed.set(change.data.id, change.data.messageIds);
        else threadsDeleted.add(change.objectId);
      }
    }
    await Promise.all([this.rows.load('Message', messageIds), this.rows.load('Thread', threadIds), this.counts.readAll(), this.contacts.readAhead(upserted)]);
    for (const id of messageIds) {
      const row = this.rows.messages.get(id);
      if (row) threadIds.push(messageFromRow(row).meta.threadId);
    }
    await this.rows.load('Thread', threadIds);
    const inPage = new Set(upserted.map((message) => message.id));
    const spanning = [...new Set(threadIds)].filter((threadId) => {
      if (threadsDeleted.has(threadId)) return false;
      const row = this.rows.threads.get(threadId);
      const stored = row ? threadFromRow(row) : null;
      const ids = listed.get(threadId) ?? (stored ? (stored.server ?? stored.summary).messageIds : []);
      return ids.some((id) => !inPage.has(id));
    });
    const rows = await Promise.all(spanning.map((threadId) => this.tx.getAll('Message', { index: 'thread_id', range: only(threadId) })));
    spanning.forEach((threadId, i) => this.threadMessagesAhead.set(threadId, rows[i]!));
  }

  async putFolder(folder: Folder): Promise<void> {
    this.tx.queuePut('Category', folderToRow(this.accountId, folder));
    this.contacts.noteFolder(folder);
    this.foldersChanged = true;
  }

  async deleteFolder(folderId: string): Promise<void> {
    this.tx.queueDelete('Category', folderId);
    this.counts.deleteFolder(folderId);
    this.foldersChanged = true;
  }

  /** The gateway's state of a message; pending changes stay on top. */
  async putMessage(server: MessageMeta): Promise<void> {
    const old = await this.rows.message(server.id);
    const effects = this.pending.effectsFor(server.id);
    const { meta, deleted } = applyEffects(server, effects);
    this.writeMessage({ meta, deleted, server: effects.length > 0 ? server : null });
    if (!old) this.contacts.saw(server);
    this.threadIds.add(server.threadId);
    this.unreadDirty.add(server.threadId);
    if (effects.length > 0) this.dirty.add(server.threadId);
    const oldThreadId = old ? messageFromRow(old).meta.threadId : server.threadId;
    if (oldThreadId !== server.threadId) {
      this.threadIds.add(oldThreadId);
      this.unreadDirty.add(oldThreadId);
    }
  }

  async deleteMessage(messageId: string): Promise<void> {
    const old = await this.rows.message(messageId);
    this.tx.queueDelete('Message', messageId);
    this.tx.queueDelete('MessageBody', messageId);
    this.rows.messages.set(messageId, null);
    this.messageChanges.set(messageId, null);
    this.written.delete(messageId);
    if (!old) return;
    const threadId = messageFromRow(old).meta.threadId;
    this.threadIds.add(threadId);
    this.unreadDirty.add(threadId);
    if (!this.pending.isEmpty) this.dirty.add(threadId);
  }

  /** The gateway's summary of a thread; settled at the end when a pending change touches it. */
  async putThread(server: ThreadSummary): Promise<void> {
    this.threadIds.add(server.id);
    if (this.pending.touchesThread(server.id, server.messageIds)) {
      this.threadBases.set(server.id, server);
      this.dirty.add(server.id);
      return;
    }
    this.threadBases.delete(server.id);
    this.dirty.delete(server.id);
    await this.writeThread(server.id, { summary: server, server: null });
  }

  async deleteThread(threadId: string): Promise<void> {
    this.threadIds.add(threadId);
    this.threadBases.delete(threadId);
    this.dirty.delete(threadId);
    await this.writeThread(threadId, null);
  }

  /** Lays the pending changes over these messages again (a command was added, confirmed or reverted). */
  async refreshMessages(messageIds: Iterable<string>): Promise<void> {
    const ids = [...messageIds];
    await this.rows.load('Message', ids);
    for (const id of ids) {
      const row = this.rows.messages.get(id);
      if (!row) continue;
      const local = messageFromRow(row);
      const server = local.server ?? local.meta;
      const effects = this.pending.effectsFor(id);
      const { meta, deleted } = applyEffects(server, effects);
      this.writeMessage({ meta, deleted, server: effects.length > 0 ? server : null });
      this.threadIds.add(meta.threadId);
      this.dirty.add(meta.threadId);
      this.unreadDirty.add(meta.threadId);
    }
  }

  /** Marks threads to be summarised again at the end. */
  refreshThreads(threadIds: Iterable<string>): void {
    for (const id of threadIds) {
      this.threadIds.add(id);
      this.dirty.add(id);
    }
  }

  /** Settles the threads left to summarise and writes counts and contacts. Call once, last. */
  async finish(): Promise<void> {
    await this.rows.load('Thread', this.dirty);
    const touched = await this.messagesOfTouchedThreads();
    for (const threadId of this.dirty) await this.settleThread(threadId, touched.get(threadId));
    this.dirty.clear();
    await this.recountAll([...this.unreadDirty]);
    this.unreadDirty.clear();
    for (const threadId of this.threadsToPut) {
      const row = this.rows.threads.get(threadId);
      if (row) this.tx.queuePut('Thread', row);
    }
    this.threadsToPut.clear();
    await this.counts.write();
    await this.contacts.write();
  }

  private writeMessage(local: LocalMessage): void {
    const row = messageToRow(this.accountId, local);
    this.tx.queuePut('Message', row);
    this.rows.messages.set(row.id, row);
    this.messageChanges.set(row.id, local);
    this.written.set(row.id, factsOf(local.meta, local.deleted));
  }

  /** Thread rows are put at the end: a page often changes one several times. */
  private setThreadRow(row: StoredRow): void {
    this.rows.threads.set(row.id, row);
    this.threadsToPut.add(row.id);
  }

  /**
   * A thread shown as its messages are locally: the server's summary when nothing pending
   * touches it, else summarised from the visible messages (the gateway's rules) over it.
   */
  private async settleThread(threadId: string, storedMessages?: readonly StoredRow[]): Promise<void> {
    const base = await this.baseOf(threadId);
    if (!base) return; // not synced yet: its summary arrives with the delta
    if (!this.pending.touchesThread(threadId, base.messageIds)) {
      await this.writeThread(threadId, { summary: base, server: null });
      return;
    }
    const messages = (storedMessages ?? (await this.tx.getAll('Message', { index: 'thread_id', range: only(threadId) }))).map(messageFromRow);
    const visible = messages.filter((message) => !message.deleted).map((message) => message.meta);
    // The gateway's mark (a fired reminder) stays while local changes are laid over its summary.
    const local = summarizeThread(threadId, visible);
    await this.writeThread(threadId, { summary: local ? withRaisedMark(local, base.raised) : emptiedThread(base), server: base });
  }

  /** The gateway's summary of a thread, which pending changes are laid over. */
  private async baseOf(threadId: string): Promise<ThreadSummary | undefined> {
    const row = this.threadBases.has(threadId) ? undefined : await this.rows.thread(threadId);
    const stored = row ? threadFromRow(row) : null;
    return this.threadBases.get(threadId) ?? stored?.server ?? stored?.summary;
  }

  /**
   * The stored messages of the dirty threads a pending command touches, asked all at once:
   * a command over hundreds of threads ("select all") waited once per thread. Asked after
   * this writer's message writes, so they are seen; settling a thread writes only its row.
   */
  private async messagesOfTouchedThreads(): Promise<Map<string, StoredRow[]>> {
    const touched: string[] = [];
    if (this.pending.isEmpty) return new Map(); // a delta page with nothing pending: nothing to summarise locally
    for (const threadId of this.dirty) {
      const base = await this.baseOf(threadId);
      if (base && this.pending.touchesThread(threadId, base.messageIds)) touched.push(threadId);
    }
    if (touched.length < 2) return new Map();
    const rows = await Promise.all(touched.map((threadId) => this.tx.getAll('Message', { index: 'thread_id', range: only(threadId) })));
    return new Map(touched.map((threadId, i) => [threadId, rows[i] ?? []]));
  }

  private async writeThread(threadId: string, next: LocalThread | null): Promise<void> {
    const oldRow = await this.rows.thread(threadId);
    const unreadFolders = unreadFoldersOf(oldRow);
    if (next) {
      const given = next.summary.hasAttachments;
      const paperclip = paperclipOf(oldRow);
      const row = threadToRow(this.accountId, { ...next, summary: { ...next.summary, hasAttachments: paperclip ?? given } }) as Record<string, unknown>;
      row[UNREAD_FOLDERS] = unreadFolders;
      row[GIVEN_ATTACHMENTS] = given;
      row[PAPERCLIP] = paperclip;
      this.setThreadRow(row as StoredRow);
    } else if (oldRow) {
      this.tx.queueDelete('Thread', threadId);
      this.rows.threads.set(threadId, null);
      this.threadsToPut.delete(threadId);
      this.counts.countUnread(unreadFolders, -1);
    }
    if (oldRow) this.counts.countTotal(threadFromRow(oldRow).summary.folderIds, -1);
    if (next) this.counts.countTotal(next.summary.folderIds, 1);
    // Its messages may have arrived before it, or it names other messages now: look at them again.
    const oldIds = oldRow ? threadFromRow(oldRow).summary.messageIds : null;
    if (next && (oldIds === null || oldIds.join() !== next.summary.messageIds.join())) this.unreadDirty.add(threadId);
  }

  /**
   * Recounts threads: from the messages this transaction wrote, laid over the messages
   * read ahead; the threads neither covers are read in one batch of index reads.
   */
  private async recountAll(threadIds: readonly string[]): Promise<void> {
    await this.rows.load('Thread', threadIds);
    const writtenIn = new Map<string, MessageFacts[]>();
    for (const facts of this.written.values()) {
      const list = writtenIn.get(facts.threadId);
      if (list) list.push(facts);
      else writtenIn.set(facts.threadId, [facts]);
    }
    const known = new Map<string, MessageFacts[]>();
    const toRead: string[] = [];
    for (const threadId of threadIds) {
      const row = this.rows.threads.get(threadId);
      if (!row) continue; // its summary comes later; this runs again then
      const ahead = this.threadMessagesAhead.get(threadId);
      if (ahead) {
        // Rows this transaction rewrote or removed count as they are now (`written`), not as read.
        const before = ahead.filter((stored) => !this.messageChanges.has(stored.id)).map(messageFromRow);
        known.set(threadId, [...before.map(({ meta, deleted }) => factsOf(meta, deleted)), ...(writtenIn.get(threadId) ?? [])]);
        continue;
      }
      const local = threadFromRow(row);
      const facts = (local.server ?? local.summary).messageIds.map((id) => this.written.get(id));
      if (facts.every((message) => message !== undefined && message.threadId === threadId)) known.set(threadId, facts as MessageFacts[]);
      else toRead.push(threadId);
    }
    const read = await Promise.all(toRead.map((threadId) => this.tx.getAll('Message', { index: 'thread_id', range: only(threadId) })));
    toRead.forEach((threadId, i) => known.set(threadId, read[i]!.map(messageFromRow).map(({ meta, deleted }) => factsOf(meta, deleted))));
    for (const [threadId, messages] of known) this.recount(threadId, messages);
  }

  /**
   * From the thread's local messages: which folders hold an unread one (counts follow) and
   * whether it earns the paperclip.
   */
  private recount(threadId: string, messages: readonly MessageFacts[]): void {
    const row = this.rows.threads.get(threadId);
    if (!row) return;
    const local = threadFromRow(row);
    const ids = (local.server ?? local.summary).messageIds;
    const next = [...new Set(messages.filter((message) => !message.deleted && message.unread).map((message) => message.folderId))].sort();
    const old = unreadFoldersOf(row);
    const unreadSame = old.length === next.length && old.every((id, i) => id === next[i]);

    const here = new Set(messages.map((message) => message.id));
    const complete = ids.every((id) => here.has(id));
    const earned = messages.some((message) => !message.deleted && message.paperclip);
    const paperclip = earned ? true : complete ? false : undefined;
    const given = typeof row[GIVEN_ATTACHMENTS] === 'boolean' ? (row[GIVEN_ATTACHMENTS] as boolean) : local.summary.hasAttachments;
    const hasAttachments = paperclip ?? given;
    if (unreadSame && paperclipOf(row) === paperclip && local.summary.hasAttachments === hasAttachments) return;

    const summary = { ...local.summary, hasAttachments };
    this.setThreadRow({ ...row, ...threadToRow(this.accountId, { summary, server: local.server }), [UNREAD_FOLDERS]: next, [PAPERCLIP]: paperclip });
    if (unreadSame) return;
    this.counts.countUnread(old, -1);
    this.counts.countUnread(next, 1);
  }
}
