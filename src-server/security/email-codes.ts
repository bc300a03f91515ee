import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';
import type { SystemMailer } from './system-mailer';

/** What a mailed code is for: confirming the alternate address, or a login step. */
export type EmailCodePurpose = 'verify-alternate' | 'login';

/** Long enough to reach a phone's mail app, short enough that a leaked mail soon means nothing. */
export const EMAIL_CODE_TTL_MS = 15 * 60_000;
/** Wrong tries per code; then it is spent and a new one must be asked for (10^6 / 5 is no odds). */
export const EMAIL_CODE_ATTEMPTS = 5;
/** A new code is mailed at most this often per account and purpose (nobody's inbox is flooded through us). */
export const EMAIL_CODE_RESEND_MS = 30_000;

/** `alice@home.example` → `a•••@home.example`: enough to recognise, not to learn the address. */
export function maskAddress(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/**
 * Six-digit codes the gateway mails (issue 19): to confirm an alternate address, and for the
 * ALTERNATE_EMAIL and MULTI_COUNTRY_LOGIN_ERROR login steps. One live code per account and
 * purpose, stored as an HMAC (never the code), single use, expiring, with few tries.
 */
export class EmailCodes {
  private readonly key: Buffer;

  constructor(
    private readonly deps: {
      store: SqlStore;
      /** SecretBox.derive('email-codes'). */
      key: Buffer;
      mailer: SystemMailer | undefined;
      now?: () => number;
    },
  ) {
    this.key = deps.key;
  }

  /** Whether codes can be mailed at all (a system mailer is configured). */
  get available(): boolean {
    return this.deps.mailer !== undefined;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private hash(accountId: number, purpose: EmailCodePurpose, code: string): string {
    return createHmac('sha256', this.key).update(`${accountId}:${purpose}:${code}`).digest('hex');
  }

  /**
   * Mails a fresh code to `to` (the previous one of that purpose stops working), unless one
   * was mailed there moments ago: then that one stands. SystemMailUnavailable without a mailer
   * or when the relay refuses; the code is then not stored either.
   */
  async send(params: { accountId: number; purpose: EmailCodePurpose; to: string; message: (code: string) => { subject: string; text: string } }): Promise<void> {
    const { accountId, purpose, to } = params;
    const mailer = this.deps.mailer;
    if (!mailer) throw new TernError('SystemMailUnavailable');
    const now = this.now();
    const live = await this.deps.store.get<{ sentTo: string; expiresAt: number }>(
      'SELECT sent_to AS "sentTo", expires_at AS "expiresAt" FROM email_codes WHERE account_id = ? AND purpose = ?',
      [accountId, purpose],
    );
    if (live && live.sentTo === to && Number(live.expiresAt) - EMAIL_CODE_TTL_MS + EMAIL_CODE_RESEND_MS > now) return;
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    try {
      await mailer.send({ to, ...params.message(code) });
    } catch {
      throw new TernError('SystemMailUnavailable');
    }
    await this.deps.store.run(
      `INSERT INTO email_codes (account_id, purpose, code_hash, sent_to, expires_at, attempts) VALUES (?, ?, ?, ?, ?, 0)
       ON CONFLICT (account_id, purpose) DO UPDATE SET code_hash = excluded.code_hash, sent_to = excluded.sent_to, expires_at = excluded.expires_at, attempts = 0`,
      [accountId, purpose, this.hash(accountId, purpose, code), to, now + EMAIL_CODE_TTL_MS],
    );
  }

  /**
   * Uses the live code: resolves with the address it was mailed to. EmailCodeExpired when there
   * is none (never sent, used, expired, out of tries), EmailCodeInvalid for a wrong one.
   */
  async use(params: { accountId: number; purpose: EmailCodePurpose; code: string }): Promise<string> {
    const { accountId, purpose } = params;
    const row = await this.deps.store.get<{ codeHash: string; sentTo: string; expiresAt: number; attempts: number }>(
      'SELECT code_hash AS "codeHash", sent_to AS "sentTo", expires_at AS "expiresAt", attempts FROM email_codes WHERE account_id = ? AND purpose = ?',
      [accountId, purpose],
    );
    if (!row || Number(row.expiresAt) <= this.now() || row.attempts >= EMAIL_CODE_ATTEMPTS) throw new TernError('EmailCodeExpired');
    const typed = params.code.replace(/\s+/g, '');
    const given = Buffer.from(this.hash(accountId, purpose, /^\d{6}$/.test(typed) ? typed : 'x'), 'hex');
    if (!timingSafeEqual(given, Buffer.from(row.codeHash, 'hex'))) {
      await this.deps.store.run('UPDATE email_codes SET attempts = attempts + 1 WHERE account_id = ? AND purpose = ?', [accountId, purpose]);
      throw new TernError('EmailCodeInvalid');
    }
    // Single use: whoever deletes the row first has used it (two requests racing with one code: one wins).
    const taken = await this.deps.store.run('DELETE FROM email_codes WHERE account_id = ? AND purpose = ? AND code_hash = ?', [accountId, purpose, row.codeHash]);
    if (taken.changes === 0) throw new TernError('EmailCodeExpired');
    return row.sentTo;
  }
}
