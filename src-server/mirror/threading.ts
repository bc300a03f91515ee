import type { SqlExecutor } from '../store/sql';
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
  id: number;
  first_at: number;
  last_at: number;
  awaits_root: number;
}

/** Pulls the `<id>` tokens out of a header value (References may hold several). */
export function messageIdsIn(value: string | null | undefined): string[] {
  if (!value) return [];
  const ids = value.match(/<[^<>\s]+>/g);
  if (ids) return ids;
  const bare = value.trim();
  return bare && !/\s/.test(bare) ? [`<${bare}>`] : [];
}

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
 */
/** The resolver's statements (both engines; see store/sql.ts). */
const SQL = {
  // A ref whose thread row is gone (left behind by a deleted account whose id was reused) reads as unknown and is re-pointed.
  refLookup: `SELECT t.id, t.first_at, t.last_at, t.awaits_root FROM thread_refs r JOIN threads t ON t.id = r.thread_id
    WHERE r.account_id = ? AND r.message_id_header = ?`,
  refInsert: `INSERT INTO thread_refs (account_id, message_id_header, thread_id) VALUES (?, ?, ?)
    ON CONFLICT (account_id, message_id_header) DO UPDATE SET thread_id = excluded.thread_id`,
  replyBySubject: `SELECT id, first_at, last_at, awaits_root FROM threads WHERE account_id = ? AND subject_key = ? AND first_at <= ? AND last_at >= ?
    ORDER BY ABS(last_at - ?) LIMIT 1`,
  rootBySubject: 'SELECT id, first_at, last_at, awaits_root FROM threads WHERE account_id = ? AND subject_key = ? AND awaits_root = 1 AND first_at >= ? AND first_at <= ?',
  insertThread: 'INSERT INTO threads (account_id, subject_key, first_at, last_at, awaits_root) VALUES (?, ?, ?, ?, ?) RETURNING id',
  updateThread: 'UPDATE threads SET first_at = ?, last_at = ?, awaits_root = ? WHERE id = ?',
  messagesOfThread: 'SELECT id FROM messages WHERE thread_id = ?',
  moveMessages: 'UPDATE messages SET thread_id = ? WHERE thread_id = ?',
  moveRefs: 'UPDATE thread_refs SET thread_id = ? WHERE account_id = ? AND thread_id = ?',
  deleteThread: 'DELETE FROM threads WHERE id = ?',
} as const;

export class ThreadResolver {
  /**
   * Threads `input`'s message, on `db`: the caller's open transaction (the resolver keeps no
   * connection of its own, so its statements land in the transaction that inserts the message).
   */
  async assign(db: SqlExecutor, input: ThreadInput): Promise<ThreadAssignment> {
    const { accountId, date } = input;
    const parentIds = [...input.references, ...messageIdsIn(input.inReplyTo)];
    const ids = [...new Set([...messageIdsIn(input.messageIdHeader), ...parentIds])];
    // The threads this message's ids lead to, with their spans; ids no thread knows yet are entered below.
    const candidates = new Map<number, ThreadRow>();
    const unknownIds: string[] = [];
    for (const id of ids) {
      const row = await db.get<ThreadRow>(SQL.refLookup, [accountId, id]);
      if (row) candidates.set(row.id, row);
      else unknownIds.push(id);
    }
    const subject = subjectKey(input.subject);
    const headerless = parentIds.length === 0;
    if (headerless && subject.key) {
      if (subject.isReply) {
        const row = await db.get<ThreadRow>(SQL.replyBySubject, [accountId, subject.key, date + SUBJECT_WINDOW_MS, date - SUBJECT_WINDOW_MS, date]);
        if (row) candidates.set(row.id, row);
      } else {
        for (const row of await db.all<ThreadRow>(SQL.rootBySubject, [accountId, subject.key, date, date + SUBJECT_WINDOW_MS])) candidates.set(row.id, row);
      }
    }
    // A thread waits for its root only while it holds nothing but header-less replies.
    const awaitsRoot = headerless && subject.isReply ? 1 : 0;

    const merged: number[] = [];
    const moved: number[] = [];
    let threadId: number;
    if (candidates.size === 0) {
      threadId = (await db.get<{ id: number }>(SQL.insertThread, [accountId, subject.key, date, date, awaitsRoot]))!.id;
    } else {
      const [target, ...others] = [...candidates.values()].sort((a, b) => a.id - b.id) as [ThreadRow, ...ThreadRow[]];
      threadId = target.id;
      let firstAt = Math.min(target.first_at, date);
      let lastAt = Math.max(target.last_at, date);
      let waits = target.awaits_root && awaitsRoot;
      for (const other of others) {
        for (const row of await db.all<{ id: number }>(SQL.messagesOfThread, [other.id])) moved.push(row.id);
        await db.run(SQL.moveMessages, [target.id, other.id]);
        // The other thread's refs follow it, so its ids need no entry of their own below.
        await db.run(SQL.moveRefs, [target.id, accountId, other.id]);
        await db.run(SQL.deleteThread, [other.id]);
        firstAt = Math.min(firstAt, other.first_at);
        lastAt = Math.max(lastAt, other.last_at);
        waits = waits && other.awaits_root;
        merged.push(other.id);
      }
      // Most messages land inside their thread's span: nothing to write then.
      if (firstAt !== target.first_at || lastAt !== target.last_at || (waits ? 1 : 0) !== target.awaits_root) {
        await db.run(SQL.updateThread, [firstAt, lastAt, waits ? 1 : 0, target.id]);
      }
    }
    for (const id of unknownIds) await db.run(SQL.refInsert, [accountId, id, threadId]);
    return { threadId, mergedThreadIds: merged, movedMessageIds: moved };
  }
}
