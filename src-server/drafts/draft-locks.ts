import { randomUUID } from 'node:crypto';
import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';
import { KeyedLock } from './keyed-lock';

const TAKE = `INSERT INTO draft_locks (draft_id, holder, expires_at) VALUES (?, ?, ?)
  ON CONFLICT (draft_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE draft_locks.expires_at <= ?
  RETURNING draft_id AS "draftId"`;
const RENEW = 'UPDATE draft_locks SET expires_at = ? WHERE draft_id = ? AND holder = ?';
const RELEASE = 'DELETE FROM draft_locks WHERE draft_id = ? AND holder = ?';
const RELEASE_ALL = 'DELETE FROM draft_locks';

export interface DraftLocksOptions {
  /** How long a lock holds unrenewed: a node that dies mid-save blocks its draft this long. Renewed every third of it. */
  readonly ttlMs: number;
  /** How long a save waits for a save of the same draft elsewhere before MailLockUnacquired. */
  readonly waitMs: number;
}

const DEFAULT_OPTIONS: DraftLocksOptions = { ttlMs: 30_000, waitMs: 20_000 };

/**
 * One save of a draft at a time — update, delete, or the recovery of an unfinished save —
 * across every gateway node on the database (issue 12). A save is IMAP work (APPEND the new
 * copy, delete the one it replaces) bracketed by its record: two at once could each delete
 * the other's copy, and a node's recovery running beside another node's save would delete
 * the copy that save is about to record, leaving the draft without one.
 *
 * Why a lock row with an expiry rather than a PostgreSQL advisory or row lock: what must be
 * held is network I/O, and no transaction may stay open across it (SQLite would wait for the
 * whole APPEND; PostgreSQL would pin a connection per save in progress). A session advisory
 * lock needs a connection held outside the pool, and vanishes unnoticed when it drops. A row
 * (`draft_locks`) taken by an upsert that only overwrites a lapsed holder is the same SQL on
 * both engines, and a dead node's lock lapses by itself after `ttlMs`. It is renewed while
 * the save runs; should a renewal ever come too late, the draft's version compare-and-set
 * (DraftStore.update) still refuses the second of two saves.
 *
 * Within one process the saves of a draft queue on a KeyedLock first, so they wait for each
 * other's end without polling the table.
 */
export class DraftLocks {
  private readonly local = new KeyedLock<number>();
  private readonly options: DraftLocksOptions;

  constructor(
    private readonly store: SqlStore,
    options: Partial<DraftLocksOptions> = {},
    private readonly now: () => number = Date.now,
    /** Called each time a take finds the lock held elsewhere (tests wait for it). */
    private readonly onWait?: (draftId: number) => void,
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  /**
   * Runs `task` holding the draft's lock. `holding`: the lock's token, already taken with the
   * draft's insert (`take`). Waits up to `waitMs` for a holder elsewhere, then the catalogue's
   * MailLockUnacquired ("the mailbox is busy, try again").
   */
  run<T>(draftId: number, task: () => Promise<T>, holding?: string): Promise<T> {
    return this.local.run(draftId, async () => {
      const token = holding ?? (await this.waitFor(draftId));
      return this.holding(draftId, token, task);
    });
  }

  /** Runs `task` if the lock is free now; undefined when a save holds it (the recovery looks again on its next pass). */
  tryRun<T>(draftId: number, task: () => Promise<T>): Promise<T | undefined> {
    return this.local.run(draftId, async () => {
      const token = randomUUID();
      if (!(await this.take(draftId, token))) return undefined;
      return this.holding(draftId, token, task);
    });
  }

  /** Takes the lock for `token` if it is free or lapsed (inside a transaction: with the draft's insert). */
  async take(draftId: number, token: string): Promise<boolean> {
    const now = this.now();
    return (await this.store.get(TAKE, [draftId, token, now + this.options.ttlMs, now])) !== undefined;
  }

  /** A fresh token for `take`. */
  newToken(): string {
    return randomUUID();
  }

  /** Every lock goes: only for the one node of a database (SQLite) at its start, when the holders are gone. */
  async releaseAll(): Promise<void> {
    await this.store.run(RELEASE_ALL);
  }

  private async waitFor(draftId: number): Promise<string> {
    const token = randomUUID();
    const deadline = this.now() + this.options.waitMs;
    for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
      if (await this.take(draftId, token)) return token;
      this.onWait?.(draftId);
      if (this.now() >= deadline) throw new TernError('MailLockUnacquired', { detail: { draftId: String(draftId) } });
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  private async holding<T>(draftId: number, token: string, task: () => Promise<T>): Promise<T> {
    const renewal = setInterval(() => {
      void this.store.run(RENEW, [this.now() + this.options.ttlMs, draftId, token]).catch(() => undefined);
    }, this.options.ttlMs / 3);
    renewal.unref();
    try {
      return await task();
    } finally {
      clearInterval(renewal);
      await this.store.run(RELEASE, [draftId, token]).catch(() => undefined);
    }
  }
}
