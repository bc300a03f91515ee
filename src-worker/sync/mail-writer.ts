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
 * however often the page changed them.
 */
import { anyShowsPaperclip } from '../../shared/attachment-rules';
import type { DeltaChange } from '../../shared/api/delta';
import type { Folder, MessageMeta, ThreadSummary } from '../../shared/api/mail';
import type { MailTable } from '../db/mail-schema';
import { only, type StoredRow, type WriteTransaction } from '../db/store';
import { applyEffects, type PendingEffects } from '../outbox/outbox-rows';
import { ContactTally } from './contact-tally';
import { folderToRow, messageFromRow, messageToRow, threadFromRow, threadToRow, type LocalMessage, type LocalThread } from './mail-rows';
import { emptiedThread, summarizeThread } from './thread-summary';

/** Tables a writer may touch; a transaction using one must cover them all. */
export const MAIL_WRITE_TABLES = ['Thread', 'Message', 'MessageBody', 'Category', 'ThreadCount', 'Contact', 'ProviderSyncbackRequest', 'JSONBlob'] as const satisfies readonly MailTable[];

/** Threads of one folder (a row of ThreadCount, keyed by folder id), as the gateway's /api/threads/count counts them. */
export interface FolderThreadCount {
  readonly total: number;
  /** Threads with an unread message in this folder. */
  readonly unread: number;
}

/**
 * Thread row column: the folders holding an unread message of the thread. The summary's
 * unreadCount is for the whole conversation; a folder's unread count is per folder.
 */
const UNREAD_FOLDERS = 'unread_folder_ids';
const unreadFoldersOf = (row: { readonly [column: string]: unknown } | undefined): string[] => (row?.[UNREAD_FOLDERS] as string[] | undefined) ?? [];

/**
 * Thread row columns of the paperclip (spec §5: an attachment with no contentId or over
 * 12 KB). The gateway's summary only says "has any attachment" (GIVEN_ATTACHMENTS); the
 * rule needs the messages' attachment summaries, so PAPERCLIP is worked out from the local
 * messages: true or false once every message of the thread is here, true as soon as one
 * local message earns it, absent while that cannot be told (then the gateway's flag shows).
 */
const PAPERCLIP = 'paperclip';
const GIVEN_ATTACHMENTS = 'given_has_attachments';
const paperclipOf = (row: { readonly [column: string]: unknown } | undefined): boolean | undefined =>
  typeof row?.[PAPERCLIP] === 'boolean' ? (row[PAPERCLIP] as boolean) : undefined;

/** From this many ids, a batch read first asks which of them are stored (see `storedAmong`). */
const PROBE_FROM = 32;
/** Ids in a run are at most this far apart; shorter runs are read id by id. */
const RUN_GAP = 64;
const MIN_RUN = 8;

/**
 * Ids in key order, cut where two are far apart. The gateway's ids are numbers, which sort
 * as strings only among ids of one length ("9999" comes after "10000"), so a run holds
 * ids of one length; other ids (temporary ones) form runs of their own length.
 */
function runsOf(ids: readonly string[]): string[][] {
  const sorted = [...ids].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const runs: string[][] = [];
  let run: string[] = [];
  for (const id of sorted) {
    const last = run[run.length - 1];
    const near = last !== undefined && last.length === id.length && (!/^\d+$/.test(id) || Number(id) - Number(last) <= RUN_GAP);
    if (!near && run.length > 0) {
      runs.push(run);
      run = [];
    }
    run.push(id);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** What a recount needs of a message. */
interface MessageFacts {
  readonly id: string;
  readonly threadId: string;
  readonly folderId: string;
  readonly unread: boolean;
  readonly deleted: boolean;
  readonly paperclip: boolean;
}

const factsOf = (meta: MessageMeta, deleted: boolean): MessageFacts => ({
  id: meta.id,
  threadId: meta.threadId,
  folderId: meta.folderId,
  unread: meta.unread,
  deleted,
  paperclip: anyShowsPaperclip(meta.attachments),
});

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
  private readonly countDeltas = new Map<string, { total: number; unread: number }>();
  private readonly contacts: ContactTally;
  /** Rows as this transaction has them (null: none), read once and kept current by the writes. */
  private readonly messageRows = new Map<string, StoredRow | null>();
  private readonly threadRows = new Map<string, StoredRow | null>();
  /**
   * Message rows of conversations that also have messages from earlier pages, read by
   * `prefetch` before this transaction wrote any: recounts lay this transaction's own
   * messages over them instead of reading again behind a thousand writes.
   */
  private readonly threadMessagesAhead = new Map<string, StoredRow[]>();
  /** Every ThreadCount row, when read ahead (deleted folders dropped). */
  private countRows: Map<string, StoredRow> | null = null;
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
    await Promise.all([this.load('Message', messageIds), this.load('Thread', threadIds), this.readCounts(), this.contacts.readAhead(upserted)]);
    for (const id of messageIds) {
      const row = this.messageRows.get(id);
      if (row) threadIds.push(messageFromRow(row).meta.threadId);
    }
    await this.load('Thread', threadIds);
    const inPage = new Set(upserted.map((message) => message.id));
    const spanning = [...new Set(threadIds)].filter((threadId) => {
      if (threadsDeleted.has(threadId)) return false;
      const row = this.threadRows.get(threadId);
      const stored = row ? threadFromRow(row) : null;
      const ids = listed.get(threadId) ?? (stored ? (stored.server ?? stored.summary).messageIds : []);
      return ids.some((id) => !inPage.has(id));
    });
    const rows = await Promise.all(spanning.map((threadId) => this.tx.getAll('Message', { index: 'thread_id', range: only(threadId) })));
    spanning.forEach((threadId, i) => this.threadMessagesAhead.set(threadId, rows[i]!));
  }

  async putFolder(folder: Folder): Promise<void> {
    this.tx.queuePut('Category', folderToRow(this.accountId, folder));
    this.foldersChanged = true;
  }

  async deleteFolder(folderId: string): Promise<void> {
    this.tx.queueDelete('Category', folderId);
    this.tx.queueDelete('ThreadCount', folderId);
    this.countRows?.delete(folderId);
    this.foldersChanged = true;
  }

  /** The gateway's state of a message; pending changes stay on top. */
  async putMessage(server: MessageMeta): Promise<void> {
    const old = await this.messageRow(server.id);
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
    const old = await this.messageRow(messageId);
    this.tx.queueDelete('Message', messageId);
    this.tx.queueDelete('MessageBody', messageId);
    this.messageRows.set(messageId, null);
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
    await this.load('Message', ids);
    for (const id of ids) {
      const row = this.messageRows.get(id);
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
    await this.load('Thread', this.dirty);
    const touched = await this.messagesOfTouchedThreads();
    for (const threadId of this.dirty) await this.settleThread(threadId, touched.get(threadId));
    this.dirty.clear();
    await this.recountAll([...this.unreadDirty]);
    this.unreadDirty.clear();
    for (const threadId of this.threadsToPut) {
      const row = this.threadRows.get(threadId);
      if (row) this.tx.queuePut('Thread', row);
    }
    this.threadsToPut.clear();
    const changed = [...this.countDeltas].filter(([, delta]) => delta.total !== 0 || delta.unread !== 0);
    const counts = this.countRows;
    const stored = counts ? changed.map(([folderId]) => counts.get(folderId)) : await this.tx.getMany('ThreadCount', changed.map(([folderId]) => folderId));
    changed.forEach(([folderId, delta], i) => {
      const total = Math.max(0, Number(stored[i]?.total ?? 0) + delta.total);
      const unread = Math.max(0, Number(stored[i]?.unread ?? 0) + delta.unread);
      const row = { id: folderId, total, unread };
      this.tx.queuePut('ThreadCount', row);
      counts?.set(folderId, row);
    });
    this.countDeltas.clear();
    await this.contacts.write();
  }

  private async readCounts(): Promise<void> {
    const rows = await this.tx.getAll('ThreadCount');
    this.countRows = new Map(rows.map((row) => [row.id, row]));
  }

  /** Rows not read yet, in one batch; a big batch first asks which of them exist. */
  private async load(table: 'Message' | 'Thread', ids: Iterable<string>): Promise<void> {
    const cache = table === 'Message' ? this.messageRows : this.threadRows;
    const missing = [...new Set(ids)].filter((id) => !cache.has(id));
    if (missing.length === 0) return;
    const toRead = missing.length >= PROBE_FROM ? await this.storedAmong(table, missing) : missing;
    const rows = await this.tx.getMany(table, toRead);
    for (const id of missing) cache.set(id, null);
    toRead.forEach((id, i) => cache.set(id, rows[i] ?? null));
  }

  /**
   * The ids that may have a row, asked with key-only reads over runs of close ids instead
   * of a read per id: a backfill page's new rows have ids the gateway numbered one after
   * another, and a run of them holds few stored keys (past a read's limit, the rest of a
   * run is read one by one). Ids far from the others are simply read.
   */
  private async storedAmong(table: 'Message' | 'Thread', ids: readonly string[]): Promise<string[]> {
    const runs = runsOf(ids);
    const found = await Promise.all(
      runs.map(async (run) => {
        if (run.length < MIN_RUN) return run;
        const limit = run.length * 4;
        const keys = await this.tx.getAllKeys(table, { range: { lower: run[0]!, upper: run[run.length - 1]! }, limit });
        const stored = new Set(keys);
        const unknownAfter = keys.length < limit ? null : keys[keys.length - 1]!;
        return run.filter((id) => stored.has(id) || (unknownAfter !== null && id > unknownAfter));
      }),
    );
    return found.flat();
  }

  private async messageRow(id: string): Promise<StoredRow | undefined> {
    if (!this.messageRows.has(id)) await this.load('Message', [id]);
    return this.messageRows.get(id) ?? undefined;
  }

  private async threadRow(id: string): Promise<StoredRow | undefined> {
    if (!this.threadRows.has(id)) await this.load('Thread', [id]);
    return this.threadRows.get(id) ?? undefined;
  }

  private writeMessage(local: LocalMessage): void {
    const row = messageToRow(this.accountId, local);
    this.tx.queuePut('Message', row);
    this.messageRows.set(row.id, row);
    this.messageChanges.set(row.id, local);
    this.written.set(row.id, factsOf(local.meta, local.deleted));
  }

  /** Thread rows are put at the end: a page often changes one several times. */
  private setThreadRow(row: StoredRow): void {
    this.threadRows.set(row.id, row);
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
    await this.writeThread(threadId, { summary: summarizeThread(threadId, visible) ?? emptiedThread(base), server: base });
  }

  /** The gateway's summary of a thread, which pending changes are laid over. */
  private async baseOf(threadId: string): Promise<ThreadSummary | undefined> {
    const row = this.threadBases.has(threadId) ? undefined : await this.threadRow(threadId);
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
    const oldRow = await this.threadRow(threadId);
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
      this.threadRows.set(threadId, null);
      this.threadsToPut.delete(threadId);
      this.countUnread(unreadFolders, -1);
    }
    if (oldRow) this.countTotal(threadFromRow(oldRow).summary.folderIds, -1);
    if (next) this.countTotal(next.summary.folderIds, 1);
    // Its messages may have arrived before it, or it names other messages now: look at them again.
    const oldIds = oldRow ? threadFromRow(oldRow).summary.messageIds : null;
    if (next && (oldIds === null || oldIds.join() !== next.summary.messageIds.join())) this.unreadDirty.add(threadId);
  }

  /**
   * Recounts threads: from the messages this transaction wrote, laid over the messages
   * read ahead; the threads neither covers are read in one batch of index reads.
   */
  private async recountAll(threadIds: readonly string[]): Promise<void> {
    await this.load('Thread', threadIds);
    const writtenIn = new Map<string, MessageFacts[]>();
    for (const facts of this.written.values()) {
      const list = writtenIn.get(facts.threadId);
      if (list) list.push(facts);
      else writtenIn.set(facts.threadId, [facts]);
    }
    const known = new Map<string, MessageFacts[]>();
    const toRead: string[] = [];
    for (const threadId of threadIds) {
      const row = this.threadRows.get(threadId);
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
    const row = this.threadRows.get(threadId);
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
    this.countUnread(old, -1);
    this.countUnread(next, 1);
  }

  private delta(folderId: string): { total: number; unread: number } {
    const delta = this.countDeltas.get(folderId) ?? { total: 0, unread: 0 };
    this.countDeltas.set(folderId, delta);
    return delta;
  }

  private countTotal(folderIds: readonly string[], sign: 1 | -1): void {
    for (const folderId of folderIds) this.delta(folderId).total += sign;
  }

  private countUnread(folderIds: readonly string[], sign: 1 | -1): void {
    for (const folderId of folderIds) this.delta(folderId).unread += sign;
  }
}
