// Login, sessions and the login rate limit, against real Dovecot (through the harness) and
// a real listening gateway. Needs root and the Debian mail packages, like every harness test.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loginResponseSchema, type LoginResponse } from '../../shared/api/account';
import { discoverServers, type DiscoveryDeps } from '../../src-server/auth/discovery';
import { networkLookups } from '../../src-server/auth/network-lookups';
import { loadConfig } from '../../src-server/config';
import { closeContext, createContext, type GatewayContext } from '../../src-server/context';
import { createApp } from '../../src-server/http/app';
import { startMailServers, type MailServers, type MailUser } from '../harness/mail-servers';
import { databaseUnderTest, gatewayDatabaseEnv } from './support/database-choice';
import { imapServerUnderTest } from './support/imap-server-choice';

const ALICE: MailUser = { email: 'alice@tern.test', password: 'Alice-pw-4711!' };
const BOB: MailUser = { email: 'bob@kite.test', password: 'Bob:pässwörd-42' };
/** Locked out by the rate-limit test, so the others keep their allowance. */
const DAVE: MailUser = { email: 'dave@kite.test', password: 'Dave-pw-0815!' };
const WRONG = 'Not-the-password-1!';

let servers: MailServers;
let scratch: string;
let mailDir: string;
let gatewayDir: string;
let ctx: GatewayContext;
let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  // Two directories: the harness opens its own to the mail daemons' users; the gateway's stays private.
  mailDir = await mkdtemp(join(tmpdir(), 'tern-login-mail-'));
  scratch = await mkdtemp(join(tmpdir(), 'tern-login-'));
  servers = await startMailServers({ dataDir: mailDir, users: [ALICE, BOB, DAVE], fresh: true, imapServer: imapServerUnderTest() });
  const publicDir = join(scratch, 'public');
  await mkdir(join(publicDir, 'build'), { recursive: true });
  await writeFile(join(publicDir, 'build', 'index.html'), '<!doctype html><title>Tern</title>');
  gatewayDir = join(scratch, 'gateway');
  const harness = (port: number) => ({ host: servers.host, port, security: 'none' });
  const domains = {
    'tern.test': { imap: harness(servers.ports.imap), smtp: harness(servers.ports.smtp) },
    'kite.test': { imap: harness(servers.ports.imap), smtp: harness(servers.ports.smtp) },
  };
  const config = loadConfig({
    TERN_HOST: '127.0.0.1',
    TERN_DATA_DIR: gatewayDir,
    TERN_PUBLIC_DIR: publicDir,
    TERN_MAIL_DOMAINS: JSON.stringify(domains),
    ...(await gatewayDatabaseEnv('login')),
  });
  await mkdir(gatewayDir, { recursive: true, mode: 0o700 });
  ctx = await createContext(config);
  app = await createApp(ctx);
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
  await (ctx && closeContext(ctx));
  await servers?.stop();
  for (const dir of [scratch, mailDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function call(path: string, init: { method?: string; body?: string; token?: string; headers?: Record<string, string> } = {}) {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, ms: performance.now() - started };
}

const login = (user: { email: string; password: string }, headers?: Record<string, string>) =>
  call('/api/login', { body: JSON.stringify(user), ...(headers ? { headers } : {}) });

async function loginOk(user: MailUser): Promise<LoginResponse> {
  const reply = await login(user);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return loginResponseSchema.parse(reply.body);
}

const withoutRequestId = (body: Record<string, unknown> | null) => {
  const { requestId, ...rest } = body ?? {};
  expect(requestId).toEqual(expect.any(String));
  return rest;
};

describe(`login against real ${imapServerUnderTest() === 'cyrus' ? 'Cyrus IMAP' : 'Dovecot'}`, () => {
  test('two accounts on two domains in one browser: two tokens, each sees its own account', async () => {
    const alice = await loginOk(ALICE);
    const bob = await loginOk({ ...BOB, email: '  BOB@Kite.Test ' });
    expect(alice.token).not.toBe(bob.token);
    expect(alice.mailId).not.toBe(bob.mailId);
    expect(alice).toMatchObject({ email: ALICE.email, name: 'Alice', latestTxnId: 0, baseUrl: `${origin}/api`, mailProperties: { folderSeparator: '/' } });
    expect(bob.email).toBe(BOB.email);
    expect((await call('/api/session', { token: alice.token })).body).toEqual({ mailId: alice.mailId, email: ALICE.email });
    expect((await call('/api/session', { token: bob.token })).body).toEqual({ mailId: bob.mailId, email: BOB.email });
    // Logging in again rotates the token and keeps the account.
    const again = await loginOk(ALICE);
    expect(again.mailId).toBe(alice.mailId);
    expect(again.token).not.toBe(alice.token);
  });

  test('behind a TLS proxy the API base is https', async () => {
    const reply = await login(ALICE, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'mail.tern.example' });
    expect(reply.body).toMatchObject({ baseUrl: 'https://mail.tern.example/api' });
    const forged = await login(ALICE, { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/<x>' });
    expect(forged.body).toMatchObject({ baseUrl: `${origin}/api` });
  });

  test('a wrong password and an unknown user on a known domain answer identically', async () => {
    const wrong = await login({ email: ALICE.email, password: WRONG });
    const unknown = await login({ email: 'nobody@tern.test', password: ALICE.password });
    expect(wrong.status).toBe(401);
    expect(withoutRequestId(wrong.body)).toEqual({ error: 'AuthenticationError', description: 'Incorrect Email or Password' });
    expect(unknown.status).toBe(wrong.status);
    expect(withoutRequestId(unknown.body)).toEqual(withoutRequestId(wrong.body));
    // Both wait for the same failure floor, so neither answers noticeably faster.
    expect(wrong.ms).toBeGreaterThanOrEqual(280);
    expect(unknown.ms).toBeGreaterThanOrEqual(280);
    expect(Math.abs(wrong.ms - unknown.ms)).toBeLessThan(250);
  });

  test('an unknown domain gets a discovery error from the catalogue', async () => {
    const reply = await login({ email: 'someone@nowhere.invalid', password: WRONG });
    expect(['MXNotFound', 'ImapHostNotFound', 'NoSuchImapProvider']).toContain(reply.body?.error);
    expect([404, 500]).toContain(reply.status);
  });

  test('the email step asks first: a served domain answers with its provider, an unknown one is refused from the catalogue with every lookup cancelled', async () => {
    const served = await call('/api/login/check', { body: JSON.stringify({ email: ALICE.email }) });
    expect(served.status).toBe(200);
    expect(served.body).toEqual({ provider: servers.host });
    const unknown = await call('/api/login/check', { body: JSON.stringify({ email: 'someone@nowhere.invalid' }) });
    expect(['MXNotFound', 'ImapHostNotFound', 'NoSuchImapProvider']).toContain(unknown.body?.error);
    const malformed = await call('/api/login/check', { body: JSON.stringify({ email: 'not an address' }) });
    expect(malformed.status).toBe(400);

    // The same discovery on the real resolver and network code, each call's signal kept: when it
    // has answered, nothing it started is still running (no lookup outlives the refusal).
    const signals: AbortSignal[] = [];
    const real = networkLookups();
    const keep = <A extends unknown[], R>(call: (...args: [...A, AbortSignal?]) => Promise<R>) => (...args: [...A, AbortSignal?]) => {
      const signal = args.at(-1) as AbortSignal;
      signals.push(signal);
      return call(...args);
    };
    const deps: DiscoveryDeps = {
      domains: new Map(),
      overrides: { imap: {}, smtp: {} },
      dns: { resolveSrv: keep(real.dns.resolveSrv), resolveMx: keep(real.dns.resolveMx) },
      fetchText: keep(real.fetchText),
      canConnect: keep(real.canConnect),
    };
    const refusal = await discoverServers('someone@nowhere.invalid', deps).catch((error: unknown) => error);
    expect(['MXNotFound', 'ImapHostNotFound']).toContain((refusal as { name?: string }).name);
    expect(signals.length).toBeGreaterThanOrEqual(7); // 4 SRV, 1 MX, 2 autoconfig
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });

  test('the 11th failure for an address is refused with 429, even with the right password', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await login({ email: DAVE.email, password: `${WRONG}${i}` })).status).toBe(401);
    }
    const refused = await login(DAVE);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'TooManyRequests' });
    // Only that address: another account from the same IP still logs in.
    await loginOk(BOB);
  });

  test('malformed and oversized requests are refused and the gateway keeps answering', async () => {
    const cases = [
      { body: '{"email": "alice@tern.test", "password":', error: 'InvalidRequestData' },
      { body: '{}', error: 'InvalidRequestData' },
      { body: JSON.stringify({ email: ALICE.email }), error: 'InvalidRequestData' },
      { body: JSON.stringify({ email: 'not an address', password: 'x' }), error: 'InvalidRequestData' },
      { body: JSON.stringify({ email: ALICE.email, password: 'x'.repeat(40_000) }), error: 'MessageSizeExceeded' },
    ];
    for (const { body, error } of cases) {
      const reply = await call('/api/login', { body });
      expect(reply.status, body.slice(0, 60)).toBe(400);
      expect(reply.body).toMatchObject({ error });
      expect(JSON.stringify(reply.body)).not.toMatch(/\bat \w+ \(|node_modules/); // no stack traces
    }
    const plainText = await call('/api/login', { body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(plainText.body).toMatchObject({ error: 'InvalidRequestData' });
    expect((await call('/api/health')).status).toBe(200);
    await loginOk(ALICE);
  });

  test('logout ends that token only; the token is refused afterwards', async () => {
    const first = await loginOk(ALICE);
    const second = await loginOk(BOB);
    expect((await call('/api/logout', { method: 'POST', token: first.token })).status).toBe(204);
    const after = await call('/api/session', { token: first.token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: 'InvalidToken' });
    expect((await call('/api/logout', { method: 'POST', token: first.token })).body).toMatchObject({ error: 'InvalidToken' });
    expect((await call('/api/session', { token: 'made-up-token' })).status).toBe(401);
    expect((await call('/api/session', { token: second.token })).status).toBe(200);
  });

  test('the database holds no password bytes', async () => {
    const bytes = databaseUnderTest() === 'sqlite' ? await sqliteFiles() : await postgresRows();
    expect(bytes.includes(Buffer.from(ALICE.email))).toBe(true); // the dump does see the accounts
    for (const secret of [ALICE.password, BOB.password, DAVE.password, WRONG]) {
      expect(bytes.includes(Buffer.from(secret, 'utf8')), secret).toBe(false);
      expect(bytes.includes(Buffer.from(secret, 'utf16le')), secret).toBe(false);
    }
  });
});

/** The SQLite files as they lie on disk, the write-ahead log included. */
async function sqliteFiles(): Promise<Buffer> {
  const files = (await readdir(gatewayDir)).filter((name) => name.startsWith('tern.sqlite'));
  expect(files).toContain('tern.sqlite-wal');
  return Buffer.concat(await Promise.all(files.map((name) => readFile(join(gatewayDir, name)))));
}

/** Every value of every table of the gateway's PostgreSQL database: text as UTF-8, BYTEA as its bytes (what a dump holds). */
async function postgresRows(): Promise<Buffer> {
  const tables = await ctx.store.all<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`);
  expect(tables.map((table) => table.name)).toContain('accounts');
  const values: Buffer[] = [];
  for (const { name } of tables) {
    for (const row of await ctx.store.all(`SELECT * FROM "${name}"`)) {
      for (const value of Object.values(row)) values.push(Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8'));
    }
  }
  return Buffer.concat(values);
}
