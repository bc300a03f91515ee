import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { loginResponseSchema } from '../../../shared/api/account';
import { TernError } from '../../../shared/errors';
import { AccountStore, type ServerSettings } from '../../../src-server/accounts/account-store';
import { SessionStore } from '../../../src-server/accounts/session-store';
import type { DiscoveredServers } from '../../../src-server/auth/discovery';
import { checkImapLogin, ImapCheckError, type ImapFailureKind } from '../../../src-server/auth/imap-check';
import { LoginService, nameFromAddress, type LoginServiceDeps } from '../../../src-server/auth/login-service';
import { MemoryLoginThrottle } from '../../../src-server/auth/rate-limit';
import { SecretBox } from '../../../src-server/crypto/secret-box';
import { openStore } from '../../../src-server/store/open-store';
import type { SqlStore } from '../../../src-server/store/sql';

const imap: ServerSettings = { host: 'imap.tern.test', port: 993, security: 'tls' };
const smtp: ServerSettings = { host: 'smtp.tern.test', port: 465, security: 'tls' };
const servers = (source: DiscoveredServers['source'] = 'config'): DiscoveredServers => ({ imap, smtp, provider: 'imap.tern.test', source });

let dataDir: string;
let store: SqlStore;
let accounts: AccountStore;
let sessions: SessionStore;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tern-login-'));
  store = await openStore({ dataDir, databaseFile: ':memory:' });
  accounts = new AccountStore(store, SecretBox.load({ dataDir }));
  sessions = new SessionStore(store);
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A login service whose IMAP server knows one user: alice@tern.test / right-Pass-1. */
function service(overrides: Partial<LoginServiceDeps> = {}) {
  const deps = {
    accounts,
    sessions,
    throttle: new MemoryLoginThrottle(),
    discover: vi.fn(async () => servers()),
    checkImap: vi.fn(async (params: { user: string; password: string }) => {
      if (params.user === 'alice@tern.test' && params.password === 'right-Pass-1') return { folderSeparator: '.' };
      throw new ImapCheckError('auth', 'AUTHENTICATIONFAILED');
    }),
    onLogin: vi.fn(),
    reportError: vi.fn(),
    minFailureMs: 0,
    ...overrides,
  } satisfies LoginServiceDeps;
  return { deps, login: new LoginService(deps) };
}

const attempt = (email: string, password: string, ip = '198.51.100.1') => ({ email, password, ip, baseUrl: 'https://mail.tern.test/api' });

async function failureOf(promise: Promise<unknown>): Promise<TernError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(TernError);
  return error as TernError;
}

describe('LoginService', () => {
  test('a good login stores the account, opens a session and calls onLogin', async () => {
    const { deps, login } = service();
    const reply = loginResponseSchema.parse(await login.login(attempt('  Alice@Tern.TEST ', 'right-Pass-1')));
    const account = (await accounts.byEmail('alice@tern.test'))!;
    expect(reply).toEqual({
      mailId: String(account.id),
      email: 'alice@tern.test',
      name: 'Alice',
      token: expect.any(String),
      latestTxnId: 0,
      baseUrl: 'https://mail.tern.test/api',
      provider: 'imap.tern.test',
      aliases: [],
      mailProperties: { folderSeparator: '.' },
    });
    expect((await sessions.verify(reply.token)).accountId).toBe(account.id);
    expect(await accounts.password(account.id)).toBe('right-Pass-1');
    expect(deps.onLogin).toHaveBeenCalledWith(account.id);
    expect(deps.checkImap).toHaveBeenCalledWith({ server: imap, user: 'alice@tern.test', password: 'right-Pass-1' });
  });

  test('a second login gets a new token and keeps the name the account already has', async () => {
    const { login } = service();
    const first = loginResponseSchema.parse(await login.login(attempt('alice@tern.test', 'right-Pass-1')));
    await accounts.save({ email: 'alice@tern.test', name: 'Alice Tern', imap, smtp, password: 'right-Pass-1' });
    const second = loginResponseSchema.parse(await login.login(attempt('alice@tern.test', 'right-Pass-1')));
    expect(second.token).not.toBe(first.token);
    expect(second.mailId).toBe(first.mailId);
    expect(second.name).toBe('Alice Tern');
  });

  test('wrong password and unknown user answer identically and store nothing', async () => {
    const { login } = service();
    const wrong = await failureOf(login.login(attempt('alice@tern.test', 'wrong-Pass-1')));
    const unknown = await failureOf(login.login(attempt('nobody@tern.test', 'right-Pass-1')));
    expect(wrong.toReply()).toEqual({ error: 'AuthenticationError', description: 'Incorrect Email or Password' });
    expect(unknown.toReply()).toEqual(wrong.toReply());
    expect(wrong.status).toBe(401);
    expect(await accounts.all()).toEqual([]);
  });

  // A lower bound on real time cannot fail from a slow machine (timers never fire early), so
  // it stays a plain measurement: the floor is behaviour (hides which part refused), not speed.
  // Fake timers cannot reach it: the service sleeps through node:timers/promises.
  test('a refused login takes at least the failure floor', async () => {
    const { login } = service({ minFailureMs: 150 });
    const started = performance.now();
    await failureOf(login.login(attempt('alice@tern.test', 'wrong-Pass-1')));
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  test.each<[ImapFailureKind, DiscoveredServers['source'], string]>([
    ['unreachable', 'config', 'NoSuchImapProvider'],
    ['unreachable', 'mx', 'ImapConnectionFailed'],
    ['failed', 'config', 'ImapConnectionFailed'],
  ])('an IMAP check failing as %s for a %s host → %s', async (kind, source, name) => {
    const { login } = service({
      discover: async () => servers(source),
      checkImap: async () => {
        throw new ImapCheckError(kind, 'x');
      },
    });
    expect((await failureOf(login.login(attempt('alice@tern.test', 'right-Pass-1')))).name).toBe(name);
  });

  test('discovery errors pass through and do not count against the address', async () => {
    const throttle = new MemoryLoginThrottle({ addressLimit: 2, ipLimit: 100 });
    const { login } = service({ throttle, discover: async () => Promise.reject(new TernError('MXNotFound')) });
    for (let i = 0; i < 5; i++) expect((await failureOf(login.login(attempt('x@nowhere.invalid', 'p')))).name).toBe('MXNotFound');
  });

  test('the 11th failure for an address is refused before any IMAP check', async () => {
    const { deps, login } = service();
    for (let i = 0; i < 10; i++) expect((await failureOf(login.login(attempt('alice@tern.test', `wrong-${i}`, `203.0.113.${i}`)))).name).toBe('AuthenticationError');
    const refused = await failureOf(login.login(attempt('alice@tern.test', 'right-Pass-1', '203.0.113.99')));
    expect(refused.name).toBe('TooManyRequests');
    expect(deps.checkImap).toHaveBeenCalledTimes(10);
  });

  test('a bug below is reported and answered as InternalServerError without details', async () => {
    const { deps, login } = service({ discover: async () => Promise.reject(new Error('secret internals')) });
    const error = await failureOf(login.login(attempt('alice@tern.test', 'right-Pass-1')));
    expect(error.toReply()).toEqual({ error: 'InternalServerError', description: 'Something went wrong on our side. Please try again.' });
    expect(deps.reportError).toHaveBeenCalled();
  });

  test('a failing onLogin hook does not undo the login', async () => {
    const { deps, login } = service({ onLogin: vi.fn(async () => Promise.reject(new Error('mirror down'))) });
    const reply = loginResponseSchema.parse(await login.login(attempt('alice@tern.test', 'right-Pass-1')));
    expect(await sessions.verify(reply.token)).toBeTruthy();
    expect(deps.reportError).toHaveBeenCalledWith(expect.stringContaining('onLogin'), expect.any(Error));
  });

  test('bad input is a validation error, not a login attempt', async () => {
    const { deps, login } = service();
    await expect(login.login(attempt('not-an-address', 'x'))).rejects.toMatchObject({ name: 'ZodError' });
    await expect(login.login({ email: 'alice@tern.test', password: 42, ip: '1.2.3.4', baseUrl: '' })).rejects.toMatchObject({ name: 'ZodError' });
    expect(deps.discover).not.toHaveBeenCalled();
  });

  test('names from addresses', () => {
    expect(nameFromAddress('john.smith@x.org')).toBe('John Smith');
    expect(nameFromAddress('bob_k-2+news@x.org')).toBe('Bob K 2');
  });
});

describe('checkImapLogin against things that are not IMAP servers', () => {
  test('a closed port is unreachable, quickly', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await checkImapLogin({ server: { host: '127.0.0.1', port, security: 'none' }, user: 'a@b.c', password: 'p' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImapCheckError);
    expect((error as ImapCheckError).kind).toBe('unreachable');
  });

  test('an unknown host name is unreachable', async () => {
    const error = await checkImapLogin({ server: { host: 'imap.nowhere.invalid', port: 993, security: 'tls' }, user: 'a@b.c', password: 'p' }).catch((e: unknown) => e);
    expect((error as ImapCheckError).kind).toBe('unreachable');
  });

  test('a server that greets with garbage fails without crashing the process', async () => {
    const junk = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve));
    const port = (junk.address() as { port: number }).port;
    const error = await checkImapLogin({ server: { host: '127.0.0.1', port, security: 'none' }, user: 'a@b.c', password: 'p' }).catch((e: unknown) => e);
    junk.close();
    expect(error).toBeInstanceOf(ImapCheckError);
    expect((error as ImapCheckError).kind).not.toBe('auth');
  });
});
