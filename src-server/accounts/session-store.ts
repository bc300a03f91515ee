import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface Session {
  readonly accountId: number;
  /** Identifies the session without being the token (for websockets to match a logout). */
  readonly tokenHash: string;
}

/**
 * Session tokens, one per account per browser login. Only their hashes are stored.
 * Emits 'ended' (Session) on logout so websockets of that session close.
 */
export class SessionStore extends EventEmitter<{ ended: [Session] }> {
  constructor(private readonly store: SqlStore) {
    super();
  }

  /** A fresh token for a login; a new login never reuses an old token. */
  async create(accountId: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.store.run('INSERT INTO sessions (token_hash, account_id, created_at, last_used_at) VALUES (?, ?, ?, ?)', [hash(token), accountId, now, now]);
    return token;
  }

  /** The session a token belongs to; `InvalidToken` when there is none. */
  async verify(token: string | undefined): Promise<Session> {
    if (!token || token.length > 200) throw new TernError(token ? 'InvalidToken' : 'TokenParamMissing');
    const tokenHash = hash(token);
    const row = await this.store.get<{ accountId: number }>('SELECT account_id AS "accountId" FROM sessions WHERE token_hash = ?', [tokenHash]);
    if (!row) throw new TernError('InvalidToken');
    return { accountId: row.accountId, tokenHash };
  }

  async end(session: Session): Promise<void> {
    await this.store.run('DELETE FROM sessions WHERE token_hash = ?', [session.tokenHash]);
    this.emit('ended', session);
  }

  /** Accounts with at least one live session: the ones whose mailboxes are kept mirrored. */
  async activeAccountIds(): Promise<number[]> {
    return (await this.store.all<{ id: number }>('SELECT DISTINCT account_id AS id FROM sessions')).map((row) => row.id);
  }
}
