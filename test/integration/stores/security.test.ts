/**
 * Account security's stores on both engines (DESIGN §7): a pending enrolment replaced but never
 * a confirmed one, each TOTP step used once (also by two racing requests), recovery codes
 * single-use, mailed codes single-use with few tries, session rows with what the Sessions page
 * shows, and the countries of recent logins.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { TernError } from '../../../shared/errors';
import { AccountStore } from '../../../src-server/accounts/account-store';
import { SessionStore } from '../../../src-server/accounts/session-store';
import { MemoryLoginThrottle } from '../../../src-server/auth/rate-limit';
import { SecretBox } from '../../../src-server/crypto/secret-box';
import { EMAIL_CODE_ATTEMPTS, EmailCodes } from '../../../src-server/security/email-codes';
import { LoginChallenges } from '../../../src-server/security/login-challenges';
import type { SystemMessage } from '../../../src-server/security/system-mailer';
import { totpCode } from '../../../src-server/security/totp';
import { TwoFactorService } from '../../../src-server/security/two-factor-service';
import type { SqlStore } from '../../../src-server/store/sql';
import { describeOnEngines } from '../support/engines';

const server = { host: 'imap.tern.test', port: 993, security: 'tls' as const };
const errorOf = async (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => (error instanceof TernError ? error.name : String(error)));

describeOnEngines('account security stores', (engine) => {
  let store: SqlStore;
  let clock: number;
  let accountId: number;
  let twoFactor: TwoFactorService;
  let sent: SystemMessage[];
  let codes: EmailCodes;

  beforeEach(async () => {
    store = await engine.open();
    clock = Date.UTC(2026, 10, 29, 9, 0, 5);
    const secrets = SecretBox.load({ dataDir: await engine.dataDir() });
    const accounts = new AccountStore(store, secrets);
    accountId = (await accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'pw' })).id;
    twoFactor = new TwoFactorService({ store, secrets, accounts, throttle: new MemoryLoginThrottle(), now: () => clock });
    sent = [];
    codes = new EmailCodes({ store, key: Buffer.alloc(32, 3), mailer: { send: async (message) => void sent.push(message) }, now: () => clock });
  });
  afterEach(() => store.close());

  test('an enrolment: pending replaced, confirmed kept; two requests with one code: one wins', async () => {
    const first = await twoFactor.enrol(accountId);
    const second = await twoFactor.enrol(accountId);
    expect(second.secret).not.toBe(first.secret);
    expect(await errorOf(twoFactor.confirm(accountId, totpCode({ secret: first.secret, atMs: clock }), '198.51.100.1'))).toBe('TwoFactorCodeInvalid');
    await twoFactor.confirm(accountId, totpCode({ secret: second.secret, atMs: clock }), '198.51.100.1');
    expect(await errorOf(twoFactor.enrol(accountId))).toBe('TwoFactorAlreadyEnabled');
    const code = totpCode({ secret: second.secret, atMs: clock + 30_000 });
    const outcomes = await Promise.all([0, 1].map(() => errorOf(twoFactor.verifyLogin(accountId, { authCode: code }))));
    expect(outcomes.sort()).toEqual(['TwoFactorCodeUsed', 'resolved']);
  });

  test('mailed codes: single use, a few tries, expiry; a resend within moments keeps the live code', async () => {
    const message = (code: string) => ({ subject: code, text: code });
    await codes.send({ accountId, purpose: 'login', to: 'carol@kite.test', message });
    await codes.send({ accountId, purpose: 'login', to: 'carol@kite.test', message });
    expect(sent).toHaveLength(1);
    const code = sent[0]!.subject;
    expect(await codes.use({ accountId, purpose: 'login', code })).toBe('carol@kite.test');
    expect(await errorOf(codes.use({ accountId, purpose: 'login', code }))).toBe('EmailCodeExpired');

    clock += 60_000;
    await codes.send({ accountId, purpose: 'login', to: 'carol@kite.test', message });
    const next = sent[1]!.subject;
    const wrong = next === '000000' ? '111111' : '000000';
    for (let i = 0; i < EMAIL_CODE_ATTEMPTS; i++) expect(await errorOf(codes.use({ accountId, purpose: 'login', code: wrong }))).toBe('EmailCodeInvalid');
    expect(await errorOf(codes.use({ accountId, purpose: 'login', code: next }))).toBe('EmailCodeExpired');

    clock += 60_000;
    await codes.send({ accountId, purpose: 'verify-alternate', to: 'carol@kite.test', message });
    clock += 16 * 60_000;
    expect(await errorOf(codes.use({ accountId, purpose: 'verify-alternate', code: sent[2]!.subject }))).toBe('EmailCodeExpired');
  });

  test('sessions keep their browser, address and country, and end by their listed id only', async () => {
    const sessions = new SessionStore(store, () => clock);
    const token = await sessions.create(accountId, { userAgent: 'Firefox/133.0', ip: '81.2.69.160', country: 'GB' });
    await sessions.create(accountId, { userAgent: 'Chrome/131.0', ip: '10.0.0.2', country: null });
    clock += 120_000;
    await sessions.verify(token); // last active moves on
    const list = await sessions.list(accountId);
    expect(list.map(({ userAgent, ip, country, lastActiveAt }) => ({ userAgent, ip, country, lastActiveAt }))).toEqual([
      { userAgent: 'Firefox/133.0', ip: '81.2.69.160', country: 'GB', lastActiveAt: clock },
      { userAgent: 'Chrome/131.0', ip: '10.0.0.2', country: null, lastActiveAt: clock - 120_000 },
    ]);
    expect(await sessions.endOf(accountId + 1, { id: list[1]!.id })).toBe(0);
    expect(await sessions.endOf(accountId, { id: list[1]!.id })).toBe(1);
    expect(await sessions.endOf(accountId, { id: null, except: list[0]!.tokenHash })).toBe(0);
    expect((await sessions.list(accountId)).map((session) => session.id)).toEqual([list[0]!.id]);
  });

  test('the countries of successful logins are recorded; only an unseen one is unusual', async () => {
    const countries = { countryOf: (ip: string) => ({ '81.2.69.160': 'GB', '2.125.7.8': 'DE' })[ip] ?? null };
    const unconfirmable: string[] = [];
    const challenges = new LoginChallenges({
      store,
      twoFactor,
      alternate: { verified: async () => null, sendLoginCode: async () => 'x', useLoginCode: async () => undefined },
      canMail: false,
      countries,
      onUnconfirmable: (_id, country) => unconfirmable.push(country),
      now: () => clock,
    });
    expect(await challenges.check({ accountId, answer: {}, ip: '2.125.7.8' })).toEqual({ kind: 'pass' });
    await challenges.succeeded({ accountId, ip: '81.2.69.160' });
    await challenges.succeeded({ accountId, ip: '81.2.69.160' });
    await challenges.check({ accountId, answer: {}, ip: '81.2.69.160' });
    await challenges.check({ accountId, answer: {}, ip: '2.125.7.8' });
    expect(unconfirmable).toEqual(['DE']);
  });
});
