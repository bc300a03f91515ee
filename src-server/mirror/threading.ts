import type { SqlExecutor } from '../store/sql';
import { inChunks, placeholders } from '../store/sql-lists';
import { subjectKey } from './subject-key';

/** How far apart a header-less reply and its conversation may be for the subject fallback. */
export const SUBJECT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export interface ThreadInput {
  readonly accountId: number;
  /** The message's own Message-ID, `<…>` included; null when it has none. */
  readonly messageIdHeader: string | null;
  readonly inReplyTo: string | null;
  /** Message-IDs of the References header, oldest first. */
  readonly references: readonly string[];
  readonly subject: string;
  /** Date header, epoch ms. */
  readonly date: number;
}

export interface ThreadAssignment {
  readonly threadId: number;
  /** Threads folded into `threadId` by this message (their rows are gone). */
  readonly mergedThreadIds: readonly number[];
  /** Messages already mirrored that moved into `threadId` with those merges. */
  readonly movedMessageIds: readonly number[];
}

interface ThreadRow {
  readonly id: number;
  readonly subject_key: string;
  first_at: number;
  last_at: number;
  awaits_root: number;
}

/**
 * The longest Message-ID kept whole, in characters. Ids are index keys (thread_refs,
 * messages_msgid), and a PostgreSQL index entry holds at most 2,704 bytes: one hostile
 * message with a longer id failed its whole mirror batch there, on every retry. 600
 * characters are at most 2,400 bytes in UTF-8; real ids are far shorter. A longer id is cut
 * the same way wherever it is read, so a reply still finds it.
 */
const MAX_MESSAGE_ID_CHARS = 600;
const capped = (id: string) => {
  const chars = [...id];
  return chars.length <= MAX_MESSAGE_ID_CHARS ? id : `${chars.slice(0, MAX_MESSAGE_ID_CHARS - 1).join('')}>`;
};

/** Pulls the `<id>` tokens out of a header value (References may hold several). */
export function messageIdsIn(value: string | null | undefined): string[] {
  if (!value) return [];
  const ids = value.match(/<[^<>\s]+>/g);
  if (ids) return ids.map(capped);
  const bare = value.trim();
  return bare && !/\s/.test(bare) ? [capped(`<${bare}>`)] : [];
}

/** Rows per multi-row statement of the batch's writes (4 values each: well under both engines' limits). */
const ROWS_PER_STATEMENT = 200;

const row = (count: number) => `(${placeholders(count)})`;

/** The resolver's statements (both engines; see store/sql.ts). */
const SQL = {
  // A ref whose thread row is gone (left behind by a deleted account whose id was reused) reads as unknown and is re-pointed.
  refs: (count: number) => `SELECT r.message_id_header AS "messageIdHeader", t.id, t.subject_key, t.first_at, t.last_at, t.awaits_root
    FROM thread_refs r JOIN threads t ON t.id = r.thread_id WHERE r.account_id = ? AND r.message_id_header IN (${placeholders(count)})`,
  bySubject: (count: number) => `SELECT id, subject_key, first_at, last_at, awaits_root FROM threads WHERE account_id = ? AND subject_key IN (${placeholders(count)})`,
  insertThreads: (count: number) => `INSERT INTO threads (id, account_id, subject_key, first_at, last_at, awaits_root) VALUES ${Array.from({ length: count }, () => row(6)).join(', ')}`,
  reservePostgres: "SELECT nextval(pg_get_serial_sequence('threads', 'id')) AS id FROM generate_series(1, ?)",
  reserveSqlite: "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'threads'), 0) AS last",
  // Typed in the first row: PostgreSQL gives the other rows' parameters the same types.
  spans: (count: number) => `UPDATE threads SET first_at = v.first_at, last_at = v.last_at, awaits_root = v.awaits_root
    FROM (SELECT CAST(? AS BIGINT) AS id, CAST(? AS BIGINT) AS first_at, CAST(? AS BIGINT) AS last_at, CAST(? AS BIGINT) AS awaits_root
      ${' UNION ALL SELECT ?, ?, ?, ?'.repeat(count - 1)}) AS v
    WHERE threads.id = v.id`,
  refsUpsert: (count: number) => `INSERT INTO thread_refs (account_id, message_id_header, thread_id) VALUES ${Array.from({ length: count }, () => row(3)).join(', ')}
    ON CONFLICT (account_id, message_id_header) DO UPDATE SET thread_id = excluded.thread_id`,
  messagesOfThread: 'SELECT id FROM messages WHERE thread_id = ?',
  moveMessages: 'UPDATE messages SET thread_id = ? WHERE thread_id = ?',
  moveRefs: 'UPDATE thread_refs SET thread_id = ? WHERE account_id = ? AND thread_id = ?',
  deleteThread: 'DELETE FROM threads WHERE id = ?',
} as const;

/**
 * Conversations across folders (DESIGN §3). Every Message-ID a message names — its own, its
 * In-Reply-To and its References — is entered in `thread_refs` pointing at its thread, even
 * ids of messages not mirrored yet. So whichever of an original and its reply is mirrored
 * first, the second finds the thread through the first one's entries: the result does not
 * depend on order, which matters because mirroring runs newest first. A message whose ids
 * lead to two threads merges them (the lower id survives).
 *
 * Messages without any reference header fall back to the subject: a reply ("Re:", "AW:"…)
 * joins a thread with the same normalised subject active within 30 days of it; a root
 * message joins only a thread made of such header-less replies that started within 30
 * days after it.
 *
 * A fetched batch is threaded as a whole (`ThreadBatch`): what its messages can meet — the
 * refs of their ids, the threads of their subjects — is read in a few queries first, the
 * messages are threaded one after another against that in memory, and the refs and spans
 * are written back in a few statements. A round trip per message and statement would make
 * the mirror's rate on PostgreSQL the network's, not the database's.
 */
export class ThreadResolver {
  /** Reads what `inputs` (one account's) can meet, on `db`: the transaction that will insert them. */
  async begin(db: SqlExecutor, accountId: number, inputs: readonly ThreadInput[]): Promise<ThreadBatch> {
    const batch = new ThreadBatch(db, accountId, await reserveThreadIds(db, inputs.length));
    const ids = new Set<string>();
    const subjects = new Set<string>();
    for (const input of inputs) {
      const { own, parents } = idsOf(input);
      for (const id of [...own, ...parents]) ids.add(id);
      const subject = subjectKey(input.subject);
      if (parents.length === 0 && subject.key) subjects.add(subject.key);
    }
    for (const found of await inChunks([...ids], (chunk) => db.all<ThreadRow & { messageIdHeader: string }>(SQL.refs(chunk.length), [accountId, ...chunk]))) {
      batch.know(found);
      batch.refs.set(found.messageIdHeader, found.id);
    }
    for (const found of await inChunks([...subjects], (chunk) => db.all<ThreadRow>(SQL.bySubject(chunk.length), [accountId, ...chunk]))) batch.know(found);
    return batch;
  }
}

/**
 * Ids for up to `count` new threads, so the batch can name a thread before its row is
 * written (the rows go in with one statement at the end). The one place the engines differ:
 * PostgreSQL draws them from the identity's sequence (those a batch leaves unused are
 * skipped, as a sequence's may always be); on SQLite, one writer at a time, they continue
 * after AUTOINCREMENT's counter, which the insert then moves past them.
 */
async function reserveThreadIds(db: SqlExecutor, count: number): Promise<number[]> {
  if (db.dialect === 'postgres') return (await db.all<{ id: number }>(SQL.reservePostgres, [count])).map((row) => row.id);
  const { last } = (await db.get<{ last: number }>(SQL.reserveSqlite))!;
  return Array.from({ length: count }, (_, i) => last + 1 + i);
}

function idsOf(input: ThreadInput): { own: string[]; parents: string[] } {
  return { own: messageIdsIn(input.messageIdHeader), parents: [...input.references, ...messageIdsIn(input.inReplyTo)] };
}

/** One fetched batch being threaded (see ThreadResolver). Call `finish` before inserting its messages. */
export class ThreadBatch {
  /** Message-ID → thread, for the batch's ids that have one. */
  readonly refs = new Map<string, number>();
  private readonly threads = new Map<number, ThreadRow>();
  private readonly bySubject = new Map<string, Set<number>>();
  /** Refs to write: ids entered by this batch. */
  private readonly newRefs = new Set<string>();
  /** Threads whose span changed in memory. */
  private readonly dirty = new Set<number>();
  /** Threads merged away → the thread they went into. */
  private readonly mergedInto = new Map<number, number>();
  /** Threads this batch began, whose rows `finish` writes. */
  private readonly created = new Set<number>();
  private nextReserved = 0;

  constructor(
    private readonly db: SqlExecutor,
    private readonly accountId: number,
    /** Ids for the threads the batch begins (one per message at most). */
    private readonly reserved: readonly number[],
  ) {}

  /** A thread row read from the store (the same thread read twice stays one object). */
  know(found: ThreadRow): void {
    if (this.threads.has(found.id)) return;
    const thread: ThreadRow = { id: found.id, subject_key: found.subject_key, first_at: found.first_at, last_at: found.last_at, awaits_root: found.awaits_root };
    this.threads.set(thread.id, thread);
    let ids = this.bySubject.get(thread.subject_key);
    if (!ids) this.bySubject.set(thread.subject_key, (ids = new Set()));
    ids.add(thread.id);
  }

  /** The thread `threadId` is now: itself, or the one a later message of the batch merged it into. */
  current(threadId: number): number {
    let id = threadId;
    for (let next = this.mergedInto.get(id); next !== undefined; next = this.mergedInto.get(id)) id = next;
    return id;
  }

  /** Threads one message, in the order the batch's messages are inserted. */
  async assign(input: ThreadInput): Promise<ThreadAssignment> {
    const { date } = input;
    const { own, parents } = idsOf(input);
    const ids = [...new Set([...own, ...parents])];
    // The threads this message's ids lead to, with their spans; ids no thread knows yet are entered below.
    const candidates = new Map<number, ThreadRow>();
    const unknownIds: string[] = [];
    for (const id of ids) {
      const threadId = this.refs.get(id);
      const thread = threadId === undefined ? undefined : this.threads.get(threadId);
      if (thread) candidates.set(thread.id, thread);
      else unknownIds.push(id);
    }
    const subject = subjectKey(input.subject);
    const headerless = parents.length === 0;
    if (headerless && subject.key) for (const thread of this.bySubjectMatch(subject.key, subject.isReply, date)) candidates.set(thread.id, thread);
    // A thread waits for its root only while it holds nothing but header-less replies.
    const awaitsRoot = headerless && subject.isReply ? 1 : 0;

    const merged: number[] = [];
    const moved: number[] = [];
    let threadId: number;
    if (candidates.size === 0) {
      threadId = this.reserved[this.nextReserved++]!;
      this.know({ id: threadId, subject_key: subject.key, first_at: date, last_at: date, awaits_root: awaitsRoot });
      this.created.add(threadId);
    } else {
      const [target, ...others] = [...candidates.values()].sort((a, b) => a.id - b.id) as [ThreadRow, ...ThreadRow[]];
      threadId = target.id;
      let firstAt = Math.min(target.first_at, date);
      let lastAt = Math.max(target.last_at, date);
      let waits = target.awaits_root && awaitsRoot;
      for (const other of others) {
        moved.push(...(await this.mergeInto(target.id, other.id)));
        firstAt = Math.min(firstAt, other.first_at);
        lastAt = Math.max(lastAt, other.last_at);
        waits = waits && other.awaits_root;
        merged.push(other.id);
      }
      // Most messages land inside their thread's span: nothing to write then.
      if (firstAt !== target.first_at || lastAt !== target.last_at || (waits ? 1 : 0) !== target.awaits_root) {
        target.first_at = firstAt;
        target.last_at = lastAt;
        target.awaits_root = waits ? 1 : 0;
        this.dirty.add(target.id);
      }
    }
    for (const id of unknownIds) {
      this.refs.set(id, threadId);
      this.newRefs.add(id);
    }
    return { threadId, mergedThreadIds: merged, movedMessageIds: moved };
  }

  /** Writes the batch's new threads, changed spans and new refs. */
  async finish(): Promise<void> {
    const created = [...this.created].map((id) => this.threads.get(id)!);
    for (let start = 0; start < created.length; start += ROWS_PER_STATEMENT) {
      const rows = created.slice(start, start + ROWS_PER_STATEMENT);
      await this.db.run(
        SQL.insertThreads(rows.length),
        rows.flatMap((thread) => [thread.id, this.accountId, thread.subject_key, thread.first_at, thread.last_at, thread.awaits_root]),
      );
    }
    const spans = [...this.dirty].flatMap((id) => {
      const thread = this.threads.get(id);
      return thread && !this.created.has(id) ? [[thread.id, thread.first_at, thread.last_at, thread.awaits_root]] : [];
    });
    for (let start = 0; start < spans.length; start += ROWS_PER_STATEMENT) {
      const rows = spans.slice(start, start + ROWS_PER_STATEMENT);
      await this.db.run(SQL.spans(rows.length), rows.flat());
    }
    const refs = [...this.newRefs].map((id) => [this.accountId, id, this.refs.get(id)!]);
    for (let start = 0; start < refs.length; start += ROWS_PER_STATEMENT) {
      const rows = refs.slice(start, start + ROWS_PER_STATEMENT);
      await this.db.run(SQL.refsUpsert(rows.length), rows.flat());
    }
    this.created.clear();
    this.dirty.clear();
    this.newRefs.clear();
  }

  /**
   * Threads of `key` a header-less message joins: a reply, the one active nearest its date
   * within the window; a root, every thread of header-less replies that began within the
   * window after it.
   */
  private bySubjectMatch(key: string, isReply: boolean, date: number): ThreadRow[] {
    const threads = [...(this.bySubject.get(key) ?? [])].map((id) => this.threads.get(id)!);
    if (!isReply) return threads.filter((thread) => thread.awaits_root === 1 && thread.first_at >= date && thread.first_at <= date + SUBJECT_WINDOW_MS);
    const near = threads.filter((thread) => thread.first_at <= date + SUBJECT_WINDOW_MS && thread.last_at >= date - SUBJECT_WINDOW_MS);
    const distance = (thread: ThreadRow) => Math.abs(thread.last_at - date);
    near.sort((a, b) => distance(a) - distance(b) || a.id - b.id);
    return near.slice(0, 1);
  }

  /**
   * Folds thread `otherId` into `targetId`: its messages and refs follow (in the store and in
   * memory), its row goes. Returns the stored messages that moved (a thread this batch began
   * has none stored yet: its messages are inserted with their final thread).
   */
  private async mergeInto(targetId: number, otherId: number): Promise<number[]> {
    let moved: number[] = [];
    if (!this.created.delete(otherId)) {
      moved = (await this.db.all<{ id: number }>(SQL.messagesOfThread, [otherId])).map((row) => row.id);
      await this.db.run(SQL.moveMessages, [targetId, otherId]);
      // The other thread's refs follow it, so its ids need no entry of their own.
      await this.db.run(SQL.moveRefs, [targetId, this.accountId, otherId]);
      await this.db.run(SQL.deleteThread, [otherId]);
    }
    const other = this.threads.get(otherId);
    this.threads.delete(otherId);
    if (other) this.bySubject.get(other.subject_key)?.delete(otherId);
    this.dirty.delete(otherId);
    this.mergedInto.set(otherId, targetId);
    for (const [id, threadId] of this.refs) if (threadId === otherId) this.refs.set(id, targetId);
    return moved;
  }
}
