import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The id the Sessions page names a session by: derived from the token's hash, so the page
 * never shows even the hash a websocket is matched on.
 */
export const sessionIdOf = (tokenHash: string) => createHash('sha256').update(`session-id:${tokenHash}`).digest('hex').slice(0, 24);

/** last_used_at is written at most this often per session: "last active" needs minutes, not every request. */
export const LAST_ACTIVE_RESOLUTION_MS = 60_000;

/** Longest User-Agent kept: browsers send ~150 characters; a made-up one gets no more room. */
const MAX_USER_AGENT = 512;

export interface Session {
  readonly accountId: number;
  /** Identifies the session without being the token (for websockets to match a logout). */
  readonly tokenHash: string;
}

/** One stored session as the Sessions page lists it. */
export interface SessionRecord {
  readonly id: string;
  readonly tokenHash: string;
  readonly userAgent: string | null;
  readonly ip: string | null;
  readonly country: string | null;
  readonly createdAt: number;
  readonly lastActiveAt: number;
}

/**
 * Session tokens, one per account per browser login. Only their hashes are stored.
 * Emits 'ended' (Session) on logout so websockets of that session close.
 */
export class SessionStore extends EventEmitter<{ ended: [Session] }> {
  constructor(
    private readonly store: SqlStore,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  /** A fresh token for a login; a new login never reuses an old token. */
  async create(accountId: number, client: { userAgent?: string | undefined; ip?: string | undefined; country?: string | null | undefined } = {}): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.store.run('INSERT INTO sessions (token_hash, account_id, created_at, last_used_at, user_agent, ip, country) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      hash(token),
      accountId,
      now,
      now,
      client.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      client.ip ?? null,
      client.country ?? null,
    ]);
    return token;
  }

  /** The session a token belongs to; `InvalidToken` when there is none. Notes when it was last used. */
  async verify(token: string | undefined): Promise<Session> {
    if (!token || token.length > 200) throw new TernError(token ? 'InvalidToken' : 'TokenParamMissing');
    const tokenHash = hash(token);
    const row = await this.store.get<{ accountId: number; lastUsedAt: number }>('SELECT account_id AS "accountId", last_used_at AS "lastUsedAt" FROM sessions WHERE token_hash = ?', [tokenHash]);
    if (!row) throw new TernError('InvalidToken');
    const now = this.now();
    if (now - Number(row.lastUsedAt) >= LAST_ACTIVE_RESOLUTION_MS) await this.store.run('UPDATE sessions SET last_used_at = ? WHERE token_hash = ?', [now, tokenHash]);
    return { accountId: row.accountId, tokenHash };
  }

  async end(session: Session): Promise<void> {
    await this.store.run('DELETE FROM sessions WHERE token_hash = ?', [session.tokenHash]);
    this.emit('ended', session);
  }

  /** The account's sessions, the most recently active first. */
  async list(accountId: number): Promise<SessionRecord[]> {
    const rows = await this.store.all<{ tokenHash: string; userAgent: string | null; ip: string | null; country: string | null; createdAt: number; lastActiveAt: number }>(
      `SELECT token_hash AS "tokenHash", user_agent AS "userAgent", ip, country, created_at AS "createdAt", last_used_at AS "lastActiveAt"
       FROM sessions WHERE account_id = ? ORDER BY last_used_at DESC, created_at DESC`,
      [accountId],
    );
    return rows.map((row) => ({ ...row, id: sessionIdOf(row.tokenHash), createdAt: Number(row.createdAt), lastActiveAt: Number(row.lastActiveAt) }));
  }

  /**
   * Signs sessions of the account out (their websockets close through 'ended'): the one named
   * `id`, or all but `except` when `id` is null. Returns how many ended.
   */
  async endOf(accountId: number, params: { id: string | null; except?: string }): Promise<number> {
    const ending = (await this.list(accountId)).filter((session) => (params.id === null ? session.tokenHash !== params.except : session.id === params.id));
    for (const session of ending) await this.end({ accountId, tokenHash: session.tokenHash });
    return ending.length;
  }

  /** Accounts with at least one live session: the ones whose mailboxes are kept mirrored. */
  async activeAccountIds(): Promise<number[]> {
    return (await this.store.all<{ id: number }>('SELECT DISTINCT account_id AS id FROM sessions')).map((row) => row.id);
  }
}
