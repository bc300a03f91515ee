import type { Db } from '../store/database';
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
 * days after it. Must run inside the caller's transaction.
 */
export class ThreadResolver {
  private readonly refLookup;
  private readonly refInsert;
  private readonly replyBySubject;
  private readonly rootBySubject;
  private readonly insertThread;
  private readonly updateThread;
  private readonly messagesOfThread;
  private readonly moveMessages;
  private readonly moveRefs;
  private readonly deleteThread;

  constructor(db: Db) {
    // A ref whose thread row is gone (left behind by a deleted account whose id was reused) reads as unknown and is re-pointed.
    this.refLookup = db.prepare<[number, string]>(
      `SELECT t.id, t.first_at, t.last_at, t.awaits_root FROM thread_refs r JOIN threads t ON t.id = r.thread_id
       WHERE r.account_id = ? AND r.message_id_header = ?`,
    );
    this.refInsert = db.prepare<[number, string, number]>(
      `INSERT INTO thread_refs (account_id, message_id_header, thread_id) VALUES (?, ?, ?)
       ON CONFLICT (account_id, message_id_header) DO UPDATE SET thread_id = excluded.thread_id`,
    );
    this.replyBySubject = db.prepare<[number, string, number, number, number]>(
      `SELECT id, first_at, last_at, awaits_root FROM threads WHERE account_id = ? AND subject_key = ? AND first_at <= ? AND last_at >= ?
       ORDER BY ABS(last_at - ?) LIMIT 1`,
    );
    this.rootBySubject = db.prepare<[number, string, number, number]>(
      'SELECT id, first_at, last_at, awaits_root FROM threads WHERE account_id = ? AND subject_key = ? AND awaits_root = 1 AND first_at >= ? AND first_at <= ?',
    );
    this.insertThread = db.prepare<[number, string, number, number, number]>(
      'INSERT INTO threads (account_id, subject_key, first_at, last_at, awaits_root) VALUES (?, ?, ?, ?, ?)',
    );
    this.updateThread = db.prepare<[number, number, number, number]>('UPDATE threads SET first_at = ?, last_at = ?, awaits_root = ? WHERE id = ?');
    this.messagesOfThread = db.prepare<[number]>('SELECT id FROM messages WHERE thread_id = ?');
    this.moveMessages = db.prepare<[number, number]>('UPDATE messages SET thread_id = ? WHERE thread_id = ?');
    this.moveRefs = db.prepare<[number, number, number]>('UPDATE thread_refs SET thread_id = ? WHERE account_id = ? AND thread_id = ?');
    this.deleteThread = db.prepare<[number]>('DELETE FROM threads WHERE id = ?');
  }

  assign(input: ThreadInput): ThreadAssignment {
    const { accountId, date } = input;
    const parentIds = [...input.references, ...messageIdsIn(input.inReplyTo)];
    const ids = [...new Set([...messageIdsIn(input.messageIdHeader), ...parentIds])];
    // The threads this message's ids lead to, with their spans; ids no thread knows yet are entered below.
    const candidates = new Map<number, ThreadRow>();
    const unknownIds: string[] = [];
    for (const id of ids) {
      const row = this.refLookup.get(accountId, id) as ThreadRow | undefined;
      if (row) candidates.set(row.id, row);
      else unknownIds.push(id);
    }
    const subject = subjectKey(input.subject);
    const headerless = parentIds.length === 0;
    if (headerless && subject.key) {
      if (subject.isReply) {
        const row = this.replyBySubject.get(accountId, subject.key, date + SUBJECT_WINDOW_MS, date - SUBJECT_WINDOW_MS, date) as ThreadRow | undefined;
        if (row) candidates.set(row.id, row);
      } else {
        for (const row of this.rootBySubject.all(accountId, subject.key, date, date + SUBJECT_WINDOW_MS) as ThreadRow[]) candidates.set(row.id, row);
      }
    }
    // A thread waits for its root only while it holds nothing but header-less replies.
    const awaitsRoot = headerless && subject.isReply ? 1 : 0;

    const merged: number[] = [];
    const moved: number[] = [];
    let threadId: number;
    if (candidates.size === 0) {
      threadId = Number(this.insertThread.run(accountId, subject.key, date, date, awaitsRoot).lastInsertRowid);
    } else {
      const [target, ...others] = [...candidates.values()].sort((a, b) => a.id - b.id) as [ThreadRow, ...ThreadRow[]];
      threadId = target.id;
      let firstAt = Math.min(target.first_at, date);
      let lastAt = Math.max(target.last_at, date);
      let waits = target.awaits_root && awaitsRoot;
      for (const other of others) {
        for (const row of this.messagesOfThread.all(other.id) as { id: number }[]) moved.push(row.id);
        this.moveMessages.run(target.id, other.id);
        // The other thread's refs follow it, so its ids need no entry of their own below.
        this.moveRefs.run(target.id, accountId, other.id);
        this.deleteThread.run(other.id);
        firstAt = Math.min(firstAt, other.first_at);
        lastAt = Math.max(lastAt, other.last_at);
        waits = waits && other.awaits_root;
        merged.push(other.id);
      }
      // Most messages land inside their thread's span: nothing to write then.
      if (firstAt !== target.first_at || lastAt !== target.last_at || (waits ? 1 : 0) !== target.awaits_root) {
        this.updateThread.run(firstAt, lastAt, waits ? 1 : 0, target.id);
      }
    }
    for (const id of unknownIds) this.refInsert.run(accountId, id, threadId);
    return { threadId, mergedThreadIds: merged, movedMessageIds: moved };
  }
}
