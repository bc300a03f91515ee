import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { TernError } from '../../shared/errors';
import type { Db } from '../store/database';

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
  constructor(private readonly db: Db) {
    super();
  }

  /** A fresh token for a login; a new login never reuses an old token. */
  create(accountId: number): string {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    this.db.prepare('INSERT INTO sessions (token_hash, account_id, created_at, last_used_at) VALUES (?, ?, ?, ?)').run(hash(token), accountId, now, now);
    return token;
  }

  /** The session a token belongs to; `InvalidToken` when there is none. */
  verify(token: string | undefined): Session {
    if (!token || token.length > 200) throw new TernError(token ? 'InvalidToken' : 'TokenParamMissing');
    const tokenHash = hash(token);
    const row = this.db.prepare('SELECT account_id AS accountId FROM sessions WHERE token_hash = ?').get(tokenHash) as { accountId: number } | undefined;
    if (!row) throw new TernError('InvalidToken');
    return { accountId: row.accountId, tokenHash };
  }

  end(session: Session): void {
    this.db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(session.tokenHash);
    this.emit('ended', session);
  }

  /** Accounts with at least one live session: the ones whose mailboxes are kept mirrored. */
  activeAccountIds(): number[] {
    return (this.db.prepare('SELECT DISTINCT account_id AS id FROM sessions').all() as { id: number }[]).map((row) => row.id);
  }
}
