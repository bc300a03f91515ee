import type { LoginChallengeReply } from '../../shared/api/account';
import type { ErrorName } from '../../shared/errors';
import type { SqlStore } from '../store/sql';
import type { AlternateEmailService } from './alternate-email';
import { maskAddress } from './email-codes';
import { NO_COUNTRIES, type CountryLookup } from './geoip';
import type { TwoFactorService } from './two-factor-service';

/** What a login attempt brings besides the password (shared/api/account.ts loginRequestSchema). */
export interface LoginAnswer {
  readonly authCode?: string | undefined;
  readonly recoveryCode?: string | undefined;
  readonly sendEmailCode?: boolean | undefined;
  readonly emailCode?: string | undefined;
}

/** Passed (with what the reply should add), or one more step is asked for. */
export type ChallengeOutcome =
  | { readonly kind: 'pass'; readonly recoveryCodesLeft?: number; readonly twoFactorReset?: boolean }
  | { readonly kind: 'challenge'; readonly reply: LoginChallengeReply };

/** Errors that mean a wrong guess: they count against the address like a wrong password. */
export const GUESS_ERRORS: ReadonlySet<ErrorName> = new Set<ErrorName>(['TwoFactorCodeInvalid', 'TwoFactorCodeUsed', 'RecoveryCodeInvalid', 'EmailCodeInvalid', 'EmailCodeExpired']);

/** How far back a country counts as one the account signs in from. */
export const RECENT_COUNTRIES_MS = 90 * 24 * 60 * 60 * 1000;

export interface LoginChallengesDeps {
  readonly store: SqlStore;
  readonly twoFactor: Pick<TwoFactorService, 'enabled' | 'verifyLogin' | 'reset'>;
  readonly alternate: Pick<AlternateEmailService, 'verified' | 'sendLoginCode' | 'useLoginCode'>;
  /** Whether the gateway can mail codes at all (a system mailer is configured). */
  readonly canMail: boolean;
  /** GeoIP; NO_COUNTRIES turns the suspicious-country check off. */
  readonly countries?: CountryLookup;
  /** An unusual-country login let through because the account has no way to confirm it. */
  readonly onUnconfirmable?: (accountId: number, country: string) => void;
  readonly now?: () => number;
}

/**
 * The steps a login may need after the password was proven (issue 19):
 * - two-factor on: AUTHENTICATOR (or RECOVERY_CODE), or, with the app lost, ALTERNATE_EMAIL —
 *   a code mailed to the confirmed alternate address, which signs in and resets two-factor;
 * - two-factor off: MULTI_COUNTRY_LOGIN_ERROR when GeoIP puts the client in a country none of
 *   the account's logins of the last 90 days came from, confirmed by a mailed code. Without an
 *   alternate address there is no way to confirm, and refusing would lock the owner out, so the
 *   login goes through (reported). A second factor already proves more than a country would.
 * Runs only once the mail server accepted the password, so a challenge tells nobody without it
 * whether the address exists or how it is protected.
 */
export class LoginChallenges {
  private readonly countries: CountryLookup;

  constructor(private readonly deps: LoginChallengesDeps) {
    this.countries = deps.countries ?? NO_COUNTRIES;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** The client's country for the session list (null: private, loopback, unknown or no database). */
  countryOf(ip: string): string | null {
    return this.countries.countryOf(ip);
  }

  async check(params: { accountId: number; answer: LoginAnswer; ip: string }): Promise<ChallengeOutcome> {
    const { accountId, answer } = params;
    const { twoFactor, alternate } = this.deps;
    if (await twoFactor.enabled(accountId)) {
      if (answer.authCode !== undefined || answer.recoveryCode !== undefined) {
        const passed = await twoFactor.verifyLogin(accountId, answer);
        return { kind: 'pass', ...(passed.recoveryCodesLeft !== undefined ? { recoveryCodesLeft: passed.recoveryCodesLeft } : {}) };
      }
      if (answer.emailCode !== undefined) {
        await alternate.useLoginCode(accountId, answer.emailCode);
        await twoFactor.reset(accountId);
        return { kind: 'pass', twoFactorReset: true };
      }
      if (answer.sendEmailCode) return { kind: 'challenge', reply: { challenge: 'ALTERNATE_EMAIL', sentTo: maskAddress(await alternate.sendLoginCode(accountId)) } };
      const canUseEmail = this.deps.canMail && (await alternate.verified(accountId)) !== null;
      return { kind: 'challenge', reply: { challenge: 'AUTHENTICATOR', ...(canUseEmail ? { canUseEmail } : {}) } };
    }
    const country = this.countries.countryOf(params.ip);
    if (country === null || !(await this.unusual(accountId, country))) return { kind: 'pass' };
    if (!this.deps.canMail || (await alternate.verified(accountId)) === null) {
      this.deps.onUnconfirmable?.(accountId, country);
      return { kind: 'pass' };
    }
    if (answer.emailCode !== undefined) {
      await alternate.useLoginCode(accountId, answer.emailCode);
      return { kind: 'pass' };
    }
    return { kind: 'challenge', reply: { challenge: 'MULTI_COUNTRY_LOGIN_ERROR', sentTo: maskAddress(await alternate.sendLoginCode(accountId)) } };
  }

  /** After a successful login: its country joins the account's recent ones. */
  async succeeded(params: { accountId: number; ip: string }): Promise<void> {
    const country = this.countries.countryOf(params.ip);
    if (country === null) return;
    await this.deps.store.run(
      `INSERT INTO login_countries (account_id, country, last_seen_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id, country) DO UPDATE SET last_seen_at = excluded.last_seen_at`,
      [params.accountId, country, this.now()],
    );
  }

  /** A country none of the recent logins came from; the first login with a known country is not unusual. */
  private async unusual(accountId: number, country: string): Promise<boolean> {
    const rows = await this.deps.store.all<{ country: string }>('SELECT country FROM login_countries WHERE account_id = ? AND last_seen_at > ?', [accountId, this.now() - RECENT_COUNTRIES_MS]);
    return rows.length > 0 && !rows.some((row) => row.country === country);
  }
}
