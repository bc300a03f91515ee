// Two-factor sign-in through the login service, on an in-memory SQLite store with a fake
// IMAP check (the real gateway and Dovecot: test/integration/account-security.test.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loginChallengeReplySchema, loginResponseSchema } from '../../../../shared/api/account';
import { TernError, type ErrorName } from '../../../../shared/errors';
import { AccountStore } from '../../../../src-server/accounts/account-store';
import { SessionStore } from '../../../../src-server/accounts/session-store';
import { ImapCheckError } from '../../../../src-server/auth/imap-check';
import { LoginService } from '../../../../src-server/auth/login-service';
import { MemoryLoginThrottle } from '../../../../src-server/auth/rate-limit';
import { SecretBox } from '../../../../src-server/crypto/secret-box';
import { LoginChallenges, type LoginAnswer } from '../../../../src-server/security/login-challenges';
import { totpCode } from '../../../../src-server/security/totp';
import { TwoFactorService } from '../../../../src-server/security/two-factor-service';
import { openStore } from '../../../../src-server/store/open-store';
import type { SqlStore } from '../../../../src-server/store/sql';

const server = { host: 'imap.tern.test', port: 993, security: 'tls' as const };
const ALICE = { email: 'alice@tern.test', password: 'right-Pass-1' };
const IP = '198.51.100.7';

let dataDir: string;
let store: SqlStore;
let clock: number;
let twoFactor: TwoFactorService;
let login: LoginService;
let accountId: number;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tern-2fa-'));
  store = await openStore({ dataDir, databaseFile: ':memory:' });
  const secrets = SecretBox.load({ dataDir });
  const accounts = new AccountStore(store, secrets);
  const throttle = new MemoryLoginThrottle({ now: () => clock, pairLimit: 4 });
  clock = Date.UTC(2026, 10, 29, 12, 0, 10);
  twoFactor = new TwoFactorService({ store, secrets, accounts, throttle, now: () => clock });
  login = new LoginService({
    accounts,
    sessions: new SessionStore(store),
    throttle,
    challenges: new LoginChallenges({
      store,
      twoFactor,
      alternate: { verified: async () => null, sendLoginCode: async () => Promise.reject(new TernError('AlternateEmailMissing')), useLoginCode: async () => Promise.reject(new TernError('EmailCodeExpired')) },
      canMail: false,
    }),
    discover: async () => ({ imap: server, smtp: server, provider: 'tern.test', source: 'config' }),
    checkImap: async ({ user, password }) => {
      if (user === ALICE.email && password === ALICE.password) return { folderSeparator: '/' };
      throw new ImapCheckError('auth', 'AUTHENTICATIONFAILED');
    },
    minFailureMs: 0,
    now: () => clock,
  });
  accountId = (await accounts.save({ ...ALICE, name: 'Alice', imap: server, smtp: server })).id;
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

const attempt = (answer: LoginAnswer = {}, password = ALICE.password) => login.login({ email: ALICE.email, password, answer, ip: IP, baseUrl: 'https://mail.tern.test/api' });
const errorOf = async (promise: Promise<unknown>): Promise<ErrorName> => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(TernError);
  return (error as TernError).name;
};

/** Enrols and confirms; returns the secret and the recovery codes. */
async function enable(): Promise<{ secret: string; codes: string[] }> {
  const { secret, qrSvg } = await twoFactor.enrol(accountId);
  expect(qrSvg).toMatch(/^<svg[^>]*>/);
  const { recoveryCodes } = await twoFactor.confirm(accountId, totpCode({ secret, atMs: clock }), IP);
  clock += 30_000; // the confirming code's step is used up
  return { secret, codes: recoveryCodes };
}

describe('two-factor sign-in', () => {
  test('an enrolment never confirmed asks nothing at login; a confirmed one asks AUTHENTICATOR after the password only', async () => {
    const { secret } = await twoFactor.enrol(accountId);
    expect(loginResponseSchema.safeParse(await attempt()).success).toBe(true);
    expect(await twoFactor.status(accountId)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(await errorOf(twoFactor.confirm(accountId, '000000', IP))).toBe('TwoFactorCodeInvalid');
    await twoFactor.confirm(accountId, totpCode({ secret, atMs: clock }), IP);
    expect(await twoFactor.status(accountId)).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    // A wrong password never learns that the account has two-factor.
    expect(await errorOf(attempt({}, 'wrong-Pass-1'))).toBe('AuthenticationError');
    expect(loginChallengeReplySchema.parse(await attempt())).toEqual({ challenge: 'AUTHENTICATOR' });
    expect(await errorOf(twoFactor.enrol(accountId))).toBe('TwoFactorAlreadyEnabled');
  });

  test('a code signs in once: the same code, or one of an older step, is refused as used', async () => {
    const { secret } = await enable();
    const code = totpCode({ secret, atMs: clock });
    expect(loginResponseSchema.parse(await attempt({ authCode: code })).token).toEqual(expect.any(String));
    expect(await errorOf(attempt({ authCode: code }))).toBe('TwoFactorCodeUsed');
    // The previous step's code is still inside the ±1 window, but older than the one used.
    expect(await errorOf(attempt({ authCode: totpCode({ secret, atMs: clock - 30_000 }) }))).toBe('TwoFactorCodeUsed');
    clock += 30_000;
    expect(loginResponseSchema.safeParse(await attempt({ authCode: totpCode({ secret, atMs: clock }) })).success).toBe(true);
    expect(await errorOf(attempt({ authCode: '123456' }))).toBe('TwoFactorCodeInvalid');
  });

  test('wrong codes are limited like wrong passwords, and asking for the step does not reset the count', async () => {
    const { secret } = await enable();
    expect(await errorOf(attempt({ authCode: '000001' }))).toBe('TwoFactorCodeInvalid');
    expect(await errorOf(attempt({ authCode: '000002' }))).toBe('TwoFactorCodeInvalid');
    await attempt(); // the challenge again: no success, so no fresh allowance
    expect(await errorOf(attempt({ authCode: '000003' }))).toBe('TwoFactorCodeInvalid');
    expect(await errorOf(attempt({ authCode: '000004' }))).toBe('TwoFactorCodeInvalid');
    // The pair limit (4 here) is reached: even the right code waits.
    expect(await errorOf(attempt({ authCode: totpCode({ secret, atMs: clock }) }))).toBe('TooManyRequests');
    clock += 16 * 60_000;
    expect(loginResponseSchema.safeParse(await attempt({ authCode: totpCode({ secret, atMs: clock }) })).success).toBe(true);
  });

  test('a recovery code signs in once and says how many are left; a new set needs a fresh code and ends the old set', async () => {
    const { secret, codes } = await enable();
    const first = loginResponseSchema.parse(await attempt({ recoveryCode: codes[0]!.toUpperCase() }));
    expect(first.recoveryCodesLeft).toBe(9);
    expect(await errorOf(attempt({ recoveryCode: codes[0]! }))).toBe('RecoveryCodeInvalid');
    expect(await errorOf(attempt({ recoveryCode: 'abcd-efgh-jkmn-pqrs' }))).toBe('RecoveryCodeInvalid');
    expect(await errorOf(twoFactor.regenerateRecoveryCodes(accountId, '000000', IP))).toBe('TwoFactorCodeInvalid');
    const fresh = await twoFactor.regenerateRecoveryCodes(accountId, totpCode({ secret, atMs: clock }), IP);
    expect(fresh.recoveryCodes).toHaveLength(10);
    expect(await errorOf(attempt({ recoveryCode: codes[1]! }))).toBe('RecoveryCodeInvalid');
    expect(loginResponseSchema.parse(await attempt({ recoveryCode: fresh.recoveryCodes[3]! })).recoveryCodesLeft).toBe(9);
  });

  test('disabling needs a fresh code, not a used one; afterwards the login asks nothing', async () => {
    const { secret } = await enable();
    const code = totpCode({ secret, atMs: clock });
    await attempt({ authCode: code });
    expect(await errorOf(twoFactor.disable(accountId, code, IP))).toBe('TwoFactorCodeUsed');
    clock += 30_000;
    await twoFactor.disable(accountId, totpCode({ secret, atMs: clock }), IP);
    expect(await twoFactor.status(accountId)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(loginResponseSchema.safeParse(await attempt()).success).toBe(true);
    expect(await errorOf(twoFactor.disable(accountId, '123456', IP))).toBe('TwoFactorNotEnrolled');
  });

  test('the secret is sealed at rest: the row holds neither the base32 secret nor its bytes', async () => {
    const { secret } = await twoFactor.enrol(accountId);
    const row = await store.get<{ secret: Buffer }>('SELECT secret FROM two_factor WHERE account_id = ?', [accountId]);
    expect(row!.secret.toString('latin1')).not.toContain(secret);
    expect(row!.secret[0]).toBe(1); // SecretBox's version byte
  });
});
