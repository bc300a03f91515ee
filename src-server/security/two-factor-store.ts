import type { SqlExecutor, SqlStore } from '../store/sql';

export interface TwoFactorRow {
  /** The sealed TOTP secret (SecretBox, context `two-factor:<account id>`). */
  readonly secret: Buffer;
  readonly confirmed: boolean;
  /** The newest step accepted; a code of this step or older is refused. */
  readonly lastStep: number;
}

/** The two-factor rows of accounts (migration 23): the enrolment and its recovery codes. */
export class TwoFactorStore {
  constructor(private readonly store: SqlStore) {}

  async get(accountId: number): Promise<TwoFactorRow | undefined> {
    const row = await this.store.get<{ secret: Buffer; confirmed: number; lastStep: number }>(
      'SELECT secret, confirmed, last_step AS "lastStep" FROM two_factor WHERE account_id = ?',
      [accountId],
    );
    return row && { secret: row.secret, confirmed: row.confirmed === 1, lastStep: Number(row.lastStep) };
  }

  /** A new enrolment waiting for its first code; replaces an unconfirmed one, never a confirmed one. */
  async putPending(accountId: number, secret: Buffer, at: number): Promise<boolean> {
    const result = await this.store.run(
      `INSERT INTO two_factor (account_id, secret, confirmed, last_step, created_at) VALUES (?, ?, 0, 0, ?)
       ON CONFLICT (account_id) DO UPDATE SET secret = excluded.secret, last_step = 0, created_at = excluded.created_at
       WHERE two_factor.confirmed = 0`,
      [accountId, secret, at],
    );
    return result.changes > 0;
  }

  /**
   * Takes `step` as used, once: the UPDATE only matches while the stored step is older, so
   * two requests with the same code race and one wins (on either engine). Confirms a
   * pending enrolment with the same statement when `confirm` is set.
   */
  async useStep(tx: SqlExecutor, accountId: number, step: number, params: { confirm: boolean; at: number }): Promise<boolean> {
    const result = params.confirm
      ? await tx.run('UPDATE two_factor SET last_step = ?, confirmed = 1, confirmed_at = ? WHERE account_id = ? AND confirmed = 0 AND last_step < ?', [step, params.at, accountId, step])
      : await tx.run('UPDATE two_factor SET last_step = ? WHERE account_id = ? AND confirmed = 1 AND last_step < ?', [step, accountId, step]);
    return result.changes > 0;
  }

  /** Two-factor off: the enrolment and every recovery code go. */
  async remove(tx: SqlExecutor, accountId: number): Promise<void> {
    await tx.run('DELETE FROM recovery_codes WHERE account_id = ?', [accountId]);
    await tx.run('DELETE FROM two_factor WHERE account_id = ?', [accountId]);
  }

  /** A new set of recovery codes: the old set stops working in the same transaction. */
  async replaceRecoveryCodes(tx: SqlExecutor, accountId: number, hashes: readonly string[]): Promise<void> {
    await tx.run('DELETE FROM recovery_codes WHERE account_id = ?', [accountId]);
    for (const hash of hashes) await tx.run('INSERT INTO recovery_codes (account_id, code_hash) VALUES (?, ?)', [accountId, hash]);
  }

  /** Marks an unused code used; false when it is not one of the account's or was used before. */
  async useRecoveryCode(accountId: number, hash: string, at: number): Promise<boolean> {
    const result = await this.store.run('UPDATE recovery_codes SET used_at = ? WHERE account_id = ? AND code_hash = ? AND used_at IS NULL', [at, accountId, hash]);
    return result.changes > 0;
  }

  async recoveryCodesLeft(accountId: number): Promise<number> {
    const row = await this.store.get<{ left: number }>('SELECT COUNT(*) AS "left" FROM recovery_codes WHERE account_id = ? AND used_at IS NULL', [accountId]);
    return Number(row?.left ?? 0);
  }
}
