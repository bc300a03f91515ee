import QRCode from 'qrcode';
import { TernError } from '../../shared/errors';
import type { Enrolment, RecoveryCodes } from '../../shared/api/security';
import type { AccountStore } from '../accounts/account-store';
import type { LoginThrottle } from '../auth/rate-limit';
import type { SecretBox } from '../crypto/secret-box';
import type { SqlExecutor, SqlStore } from '../store/sql';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes';
import { newTotpSecret, totpMatch, totpUri } from './totp';
import { TwoFactorStore } from './two-factor-store';

/** What the authenticator app shows above the codes. */
const ISSUER = 'Tern Mail';

const sealContext = (accountId: number) => `two-factor:${accountId}`;

export interface TwoFactorServiceDeps {
  readonly store: SqlStore;
  readonly secrets: SecretBox;
  readonly accounts: Pick<AccountStore, 'get'>;
  /** The login throttle: a code guessed in Settings costs the same allowance as one guessed at login. */
  readonly throttle: LoginThrottle;
  readonly now?: () => number;
}

/** How a login passed the second factor. */
export interface SecondFactorPassed {
  readonly method: 'authenticator' | 'recovery-code';
  /** After a recovery code: how many are left (the UI says so). */
  readonly recoveryCodesLeft?: number;
}

/**
 * Two-factor sign-in (issue 19 points 1 and 2): enrolment from Settings (pending until its
 * first code), the login check, disabling and new recovery codes (each with a fresh code).
 * Each 30-second step is accepted once per account (RFC 6238 §5.2), stored as the newest
 * step used. Wrong codes go through the login throttle, so they are limited like passwords.
 */
export class TwoFactorService {
  private readonly rows: TwoFactorStore;
  private readonly recoveryKey: Buffer;

  constructor(private readonly deps: TwoFactorServiceDeps) {
    this.rows = new TwoFactorStore(deps.store);
    this.recoveryKey = deps.secrets.derive('recovery-codes');
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Whether the login must ask for a second factor (a pending enrolment asks nothing). */
  async enabled(accountId: number): Promise<boolean> {
    return (await this.rows.get(accountId))?.confirmed === true;
  }

  async status(accountId: number): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const enabled = await this.enabled(accountId);
    return { enabled, recoveryCodesLeft: enabled ? await this.rows.recoveryCodesLeft(accountId) : 0 };
  }

  /** A new secret, pending until `confirm`; starting again replaces a pending one. */
  async enrol(accountId: number): Promise<Enrolment> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound');
    const secret = newTotpSecret();
    if (!(await this.rows.putPending(accountId, this.deps.secrets.seal(secret, sealContext(accountId)), this.now()))) {
      throw new TernError('TwoFactorAlreadyEnabled');
    }
    const uri = totpUri({ secret, issuer: ISSUER, account: account.email });
    const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, uri, qrSvg };
  }

  /** The first code turns the enrolment on; the recovery codes come back this once. */
  async confirm(accountId: number, code: string, ip: string): Promise<RecoveryCodes> {
    const row = await this.rows.get(accountId);
    if (!row) throw new TernError('TwoFactorNotEnrolled');
    if (row.confirmed) throw new TernError('TwoFactorAlreadyEnabled');
    return this.throttled(accountId, ip, async () => {
      const step = this.match(accountId, row.secret, code);
      const recoveryCodes = newRecoveryCodes();
      await this.deps.store.transaction(async (tx) => {
        if (!(await this.rows.useStep(tx, accountId, step, { confirm: true, at: this.now() }))) throw new TernError('TwoFactorCodeUsed');
        await this.rows.replaceRecoveryCodes(tx, accountId, this.hashes(accountId, recoveryCodes));
      });
      return { recoveryCodes };
    });
  }

  /** Turns two-factor off, with a fresh code from the app. */
  async disable(accountId: number, code: string, ip: string): Promise<void> {
    await this.withFreshCode(accountId, code, ip, (tx) => this.rows.remove(tx, accountId));
  }

  /** A new set of recovery codes (the old set stops working), with a fresh code from the app. */
  async regenerateRecoveryCodes(accountId: number, code: string, ip: string): Promise<RecoveryCodes> {
    const recoveryCodes = newRecoveryCodes();
    await this.withFreshCode(accountId, code, ip, (tx) => this.rows.replaceRecoveryCodes(tx, accountId, this.hashes(accountId, recoveryCodes)));
    return { recoveryCodes };
  }

  /**
   * The login's second factor, after the password was proven: an authenticator code or a
   * recovery code. Throws the catalogue error of a wrong, reused or missing code; the
   * caller counts it against the login throttle.
   */
  async verifyLogin(accountId: number, answer: { authCode?: string | undefined; recoveryCode?: string | undefined }): Promise<SecondFactorPassed> {
    const row = await this.rows.get(accountId);
    if (!row?.confirmed) throw new TernError('TwoFactorNotEnrolled');
    if (answer.authCode !== undefined) {
      const step = this.match(accountId, row.secret, answer.authCode);
      const used = await this.deps.store.transaction((tx) => this.rows.useStep(tx, accountId, step, { confirm: false, at: this.now() }));
      if (!used) throw new TernError('TwoFactorCodeUsed');
      return { method: 'authenticator' };
    }
    if (answer.recoveryCode !== undefined && (await this.rows.useRecoveryCode(accountId, recoveryCodeHash(this.recoveryKey, accountId, answer.recoveryCode), this.now()))) {
      return { method: 'recovery-code', recoveryCodesLeft: await this.rows.recoveryCodesLeft(accountId) };
    }
    throw new TernError('RecoveryCodeInvalid');
  }

  /** A fresh code from the app, used up, when two-factor is on (changing the alternate email); nothing asked when it is off. */
  async requireFreshCodeIfEnabled(accountId: number, code: string | undefined, ip: string): Promise<void> {
    if (!(await this.enabled(accountId))) return;
    await this.withFreshCode(accountId, code ?? '', ip, async () => undefined);
  }

  /** Two-factor off without a code: the reset through the confirmed alternate email (the caller proved it). */
  async reset(accountId: number): Promise<void> {
    await this.deps.store.transaction((tx) => this.rows.remove(tx, accountId));
  }

  /** The step of a right code, or TwoFactorCodeInvalid. */
  private match(accountId: number, sealed: Buffer, code: string): number {
    const secret = this.deps.secrets.open(sealed, sealContext(accountId));
    const step = totpMatch({ secret, code, atMs: this.now() });
    if (step === null) throw new TernError('TwoFactorCodeInvalid');
    return step;
  }

  private hashes(accountId: number, codes: readonly string[]): string[] {
    return codes.map((code) => recoveryCodeHash(this.recoveryKey, accountId, code));
  }

  /** Checks a fresh code of an enabled enrolment, takes its step and runs `change` in the same transaction. */
  private async withFreshCode(accountId: number, code: string, ip: string, change: (tx: SqlExecutor) => Promise<void>): Promise<void> {
    const row = await this.rows.get(accountId);
    if (!row?.confirmed) throw new TernError('TwoFactorNotEnrolled');
    await this.throttled(accountId, ip, async () => {
      const step = this.match(accountId, row.secret, code);
      await this.deps.store.transaction(async (tx) => {
        if (!(await this.rows.useStep(tx, accountId, step, { confirm: false, at: this.now() }))) throw new TernError('TwoFactorCodeUsed');
        await change(tx);
      });
    });
  }

  /** Runs a code check inside a login-throttle attempt: a wrong code counts like a wrong password. */
  private async throttled<T>(accountId: number, ip: string, check: () => Promise<T>): Promise<T> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound');
    const attempt = await this.deps.throttle.begin({ email: account.email, ip });
    try {
      const result = await check();
      await this.deps.throttle.succeeded(attempt);
      return result;
    } catch (error) {
      await this.deps.throttle.failed(attempt, { countsForAddress: error instanceof TernError && error.name.startsWith('TwoFactorCode') });
      throw error;
    }
  }
}
