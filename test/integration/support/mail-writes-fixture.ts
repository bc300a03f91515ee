// A real gateway (listening on loopback) in front of the harness's Dovecot (or Cyrus IMAP, see
// imapServerUnderTest) + Postfix with two
// users on two domains: alice@tern.test (seeded mailbox) and bob@kite.test (empty), both
// logged in over POST /api/login. `restart` closes the gateway and builds a new context and
// app over the same data directory and database, as a process restart would. The database is
// SQLite in the data dir, or a fresh PostgreSQL one on integration-postgres (database-choice.ts).
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ImapFlow, type FetchMessageObject, type FetchQueryObject } from 'imapflow';
import { deltaResponseSchema, type DeltaResponse } from '../../../shared/api/delta';
import { loginResponseSchema } from '../../../shared/api/account';
import { loadConfig, type GatewayConfig } from '../../../src-server/config';
import { closeContext, createContext, type ContextOverrides, type GatewayContext } from '../../../src-server/context';
import { createApp } from '../../../src-server/http/app';
import { startMailServers, type ImapServerKind, type MailServers, type MailUser } from '../../harness/mail-servers';
import { seedHarnessMailbox } from '../../harness/seed/seed-harness';
import type { SeedSummary } from '../../harness/seed/seed-mailbox';
import { gatewayDatabaseEnv } from './database-choice';
import { imapServerUnderTest } from './imap-server-choice';

export const ALICE: MailUser & { name: string } = { email: 'alice@tern.test', password: 'Alice-pass-1!', name: 'Alice Tern' };
export const BOB: MailUser & { name: string } = { email: 'bob@kite.test', password: 'Bob-pass-2!', name: 'Bob Kite' };

export interface Session {
  readonly accountId: number;
  readonly token: string;
}

export interface ApiReply<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  readonly text: string;
}

export interface WritesFixture {
  readonly servers: MailServers;
  readonly ctx: GatewayContext;
  readonly app: FastifyInstance;
  readonly baseUrl: string;
  readonly alice: Session;
  readonly bob: Session;
  readonly seeded: SeedSummary;
  /** JSON call with a session's token. */
  api<T = Record<string, unknown>>(session: Session, method: string, url: string, body?: unknown): Promise<ApiReply<T>>;
  /** A raw fetch with the session's token (multipart uploads). */
  fetch(session: Session, url: string, init: RequestInit): Promise<Response>;
  delta(session: Session, cursor: number): Promise<DeltaResponse>;
  /** A separate IMAP client of the user, as another mail program would be. */
  imap(user: MailUser): Promise<ImapFlow>;
  /** Closes the gateway (not the mail servers) and starts a new one over the same data dir. */
  restart(overrides?: ContextOverrides): Promise<void>;
  close(): Promise<void>;
}

export async function startWritesFixture(options: {
  name: string;
  count: number;
  overrides?: ContextOverrides;
  imapServer?: ImapServerKind;
  /** More gateway settings (e.g. TERN_UNSUBSCRIBE_ALLOW for a local list server). */
  env?: Record<string, string>;
}): Promise<WritesFixture> {
  const root = await mkdtemp(path.join(os.tmpdir(), `tern-${options.name}-`));
  await chmod(root, 0o711); // the mail daemons' users must reach <root>/mail
  const servers = await startMailServers({ dataDir: path.join(root, 'mail'), users: [ALICE, BOB], fresh: true, imapServer: options.imapServer ?? imapServerUnderTest() });
  try {
    const seeded = await seedHarnessMailbox(servers, ALICE, { owner: ALICE, count: options.count, otherAccounts: [BOB] });
    const publicDir = path.join(root, 'public');
    await mkdir(path.join(publicDir, 'build'), { recursive: true });
    await writeFile(path.join(publicDir, 'build', 'index.html'), '<!doctype html><title>Tern</title>');
    const harness = (port: number) => ({ host: servers.host, port, security: 'none' });
    const config = loadConfig({
      TERN_HOST: '127.0.0.1',
      TERN_DATA_DIR: path.join(root, 'gateway'),
      TERN_PUBLIC_DIR: publicDir,
      ...(await gatewayDatabaseEnv(options.name)),
      // ManageSieve for alice's domain (Dovecot's; Cyrus runs none here); kite.test says it has none,
      // as a provider without ManageSieve would (sieve-rules.test.ts).
      TERN_MAIL_DOMAINS: JSON.stringify({
        'tern.test': { imap: harness(servers.ports.imap), smtp: harness(servers.ports.smtp), sieve: servers.imapServer === 'dovecot' ? harness(servers.ports.sieve) : null },
        'kite.test': { imap: harness(servers.ports.imap), smtp: harness(servers.ports.smtp), sieve: null },
      }),
      ...options.env,
    });
    return await build({ root, servers, seeded, config, overrides: options.overrides ?? {} });
  } catch (error) {
    await servers.stop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

async function listen(config: GatewayConfig, overrides: ContextOverrides) {
  const ctx = await createContext(config, overrides);
  const app = await createApp(ctx);
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  return { ctx, app, baseUrl };
}

async function build(params: { root: string; servers: MailServers; seeded: SeedSummary; config: GatewayConfig; overrides: ContextOverrides }): Promise<WritesFixture> {
  const { servers, config } = params;
  let gateway = await listen(config, params.overrides);

  const login = async (user: MailUser): Promise<Session> => {
    const response = await fetch(`${gateway.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
    if (!response.ok) throw new Error(`login of ${user.email} answered ${response.status}: ${await response.text()}`);
    const body = loginResponseSchema.parse(await response.json());
    return { accountId: Number(body.mailId), token: body.token };
  };
  const alice = await login(ALICE);
  const bob = await login(BOB);

  const fixture: WritesFixture = {
    servers,
    get ctx() {
      return gateway.ctx;
    },
    get app() {
      return gateway.app;
    },
    get baseUrl() {
      return gateway.baseUrl;
    },
    alice,
    bob,
    seeded: params.seeded,
    async api<T>(session: Session, method: string, url: string, body?: unknown): Promise<ApiReply<T>> {
      const response = await fetch(`${gateway.baseUrl}${url}`, {
        method,
        headers: { authorization: `Bearer ${session.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T, text };
    },
    fetch(session, url, init) {
      return fetch(`${gateway.baseUrl}${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${session.token}` } });
    },
    async delta(session, cursor) {
      const response = await fetch(`${gateway.baseUrl}/api/delta?cursor=${cursor}&limit=2000`, { headers: { authorization: `Bearer ${session.token}` } });
      if (!response.ok) throw new Error(`delta answered ${response.status}: ${await response.text()}`);
      return deltaResponseSchema.parse(await response.json());
    },
    async imap(user) {
      const client = new ImapFlow({ host: servers.host, port: servers.ports.imap, secure: false, auth: { user: user.email, pass: user.password }, logger: false });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    },
    async restart(overrides = {}) {
      await gateway.app.close();
      await closeContext(gateway.ctx);
      gateway = await listen(config, overrides);
    },
    async close() {
      await gateway.app.close();
      await closeContext(gateway.ctx);
      await servers.stop();
      await rm(params.root, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** Every delta page after `cursor`, flattened. */
export async function changesSince(fx: WritesFixture, session: Session, cursor: number) {
  const changes = [];
  for (;;) {
    const page = await fx.delta(session, cursor);
    changes.push(...page.changes);
    cursor = page.cursor;
    if (!page.hasMore) return changes;
  }
}

/** UIDs with this Message-ID in a folder, as a separate IMAP client sees them. */
export async function uidsByMessageId(client: ImapFlow, folder: string, messageIdHeader: string): Promise<number[]> {
  await client.mailboxOpen(folder);
  const found = await client.search({ header: { 'message-id': messageIdHeader } }, { uid: true });
  return Array.isArray(found) ? found : [];
}

/** One message by UID of the selected folder; fails the test when it is not there. */
export async function fetchUid(client: ImapFlow, uid: number, query: FetchQueryObject): Promise<FetchMessageObject> {
  const message = await client.fetchOne(String(uid), query, { uid: true });
  if (!message) throw new Error(`UID ${uid} is not in ${client.mailbox ? client.mailbox.path : 'the selected folder'}`);
  return message;
}

/** A folder's message count from STATUS. */
export async function countIn(client: ImapFlow, path: string): Promise<number> {
  const status = await client.status(path, { messages: true });
  if (!status || status.messages === undefined) throw new Error(`STATUS ${path} failed`);
  return status.messages;
}
