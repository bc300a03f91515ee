// A real gateway (HTTP + websocket, listening on a loopback port) in front of a real
// Dovecot (or Cyrus IMAP, see imapServerUnderTest) + Postfix from the harness, with one
// account whose mailbox the seeder filled. Its database is SQLite in its data dir, or a fresh
// PostgreSQL database on the integration-postgres project (database-choice.ts).
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ImapFlow } from 'imapflow';
import { createTransport, type SendMailOptions } from 'nodemailer';
import { deltaResponseSchema, type DeltaChange, type DeltaResponse } from '../../../shared/api/delta';
import type { Folder, MessageMeta, ThreadSummary } from '../../../shared/api/mail';
import { loadConfig } from '../../../src-server/config';
import { closeContext, createContext, type GatewayContext } from '../../../src-server/context';
import { createApp } from '../../../src-server/http/app';
import type { AccountMirror } from '../../../src-server/mirror/account-mirror';
import { startMailServers, type ImapServerKind, type MailServers } from '../../harness/mail-servers';
import { seedHarnessMailbox } from '../../harness/seed/seed-harness';
import type { SeedSummary } from '../../harness/seed/seed-mailbox';
import { gatewayDatabaseEnv } from './database-choice';
import { imapServerUnderTest } from './imap-server-choice';

export const OWNER = { name: 'Alice Tern', email: 'alice@tern.test' };
export const PASSWORD = 'Alice-pass-1!';

export interface GatewayFixture {
  readonly servers: MailServers;
  readonly ctx: GatewayContext;
  readonly app: FastifyInstance;
  /** e.g. http://127.0.0.1:41234 */
  readonly baseUrl: string;
  readonly accountId: number;
  /** Session token of the account (Bearer for HTTP, `st` for the websocket). */
  readonly token: string;
  readonly seeded: SeedSummary;
  readonly mirror: AccountMirror;
  /** A second IMAP client, as another mail program of the user would be. */
  otherClient(): Promise<ImapFlow>;
  /** Sends mail through the harness's Postfix; resolves when SMTP accepted it. */
  send(message: SendMailOptions): Promise<void>;
  delta(cursor: number, limit?: number): Promise<DeltaResponse>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  readonly name: string;
  readonly count: number;
  readonly env?: Record<string, string>;
  /** Default: imapServerUnderTest() (the vitest project's choice). */
  readonly imapServer?: ImapServerKind;
  /** The owner's other addresses: delivered to its mailbox, and allowed as its sender on the submission port. */
  readonly aliases?: string[];
  /** The account sends through the submission port (AUTH, sender checked against the login) instead of the plain SMTP port. */
  readonly submission?: boolean;
}

export async function startGatewayFixture(options: FixtureOptions): Promise<GatewayFixture> {
  const root = await mkdtemp(path.join(os.tmpdir(), `tern-${options.name}-`));
  await chmod(root, 0o711); // the mail daemons' users must reach <root>/mail
  const servers = await startMailServers({
    dataDir: path.join(root, 'mail'),
    users: [{ email: OWNER.email, password: PASSWORD, aliases: options.aliases ?? [] }],
    fresh: true,
    imapServer: options.imapServer ?? imapServerUnderTest(),
  });
  try {
    return await startGateway(options, root, servers);
  } catch (error) {
    await servers.stop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

async function startGateway(options: FixtureOptions, root: string, servers: MailServers): Promise<GatewayFixture> {
  const seeded = await seedHarnessMailbox(servers, { email: OWNER.email, password: PASSWORD }, { owner: OWNER, count: options.count });

  const publicDir = path.join(root, 'public');
  await mkdir(path.join(publicDir, 'build'), { recursive: true });
  await writeFile(path.join(publicDir, 'build', 'index.html'), '<!doctype html><title>Tern</title>');
  const config = loadConfig({
    TERN_DATA_DIR: path.join(root, 'gateway'),
    TERN_PUBLIC_DIR: publicDir,
    ...(await gatewayDatabaseEnv(options.name)),
    ...options.env,
  });
  const ctx = await createContext(config);
  const server = { host: servers.host, port: servers.ports.imap, security: 'none' as const };
  const account = await ctx.accounts.save({ email: OWNER.email, name: OWNER.name, imap: server, smtp: { ...server, port: options.submission ? servers.ports.submission : servers.ports.smtp }, password: PASSWORD });
  const token = await ctx.sessions.create(account.id);
  const app = await createApp(ctx);
  // Listening makes the app ready, and ready starts the mirrors of accounts with live sessions.
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const mirror = ctx.mirrors.get(account.id);
  if (!mirror) throw new Error('The gateway did not start the mirror of an account with a session');

  return {
    servers,
    ctx,
    app,
    baseUrl,
    accountId: account.id,
    token,
    seeded,
    mirror,
    async otherClient() {
      const client = new ImapFlow({ host: servers.host, port: servers.ports.imap, secure: false, auth: { user: OWNER.email, pass: PASSWORD }, logger: false });
      await client.connect();
      return client;
    },
    async send(message) {
      const transport = createTransport({ host: servers.host, port: servers.ports.smtp, secure: false, ignoreTLS: true });
      try {
        await transport.sendMail(message);
      } finally {
        transport.close();
      }
    },
    async delta(cursor, limit = 2000) {
      const response = await fetch(`${baseUrl}/api/delta?cursor=${cursor}&limit=${limit}`, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`delta answered ${response.status}: ${await response.text()}`);
      return deltaResponseSchema.parse(await response.json());
    },
    async close() {
      await app.close();
      await closeContext(ctx);
      await servers.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** What a client holds after applying delta pages: the current state of every object. */
export class ClientReplica {
  readonly folders = new Map<string, Folder>();
  readonly messages = new Map<string, MessageMeta>();
  readonly threads = new Map<string, ThreadSummary>();
  cursor = 0;
  pages = 0;

  apply(change: DeltaChange): void {
    if (change.op === 'delete') {
      ({ folder: this.folders, message: this.messages, thread: this.threads })[change.object].delete(change.objectId);
      return;
    }
    if (change.object === 'folder') this.folders.set(change.data.id, change.data);
    else if (change.object === 'message') this.messages.set(change.data.id, change.data);
    else if (change.object === 'thread') this.threads.set(change.data.id, change.data);
  }

  /** Follows delta pages until hasMore is false. */
  async catchUp(fixture: Pick<GatewayFixture, 'delta'>, limit = 2000): Promise<void> {
    for (;;) {
      const page = await fixture.delta(this.cursor, limit);
      for (const change of page.changes) this.apply(change);
      this.cursor = page.cursor;
      this.pages++;
      if (!page.hasMore) return;
    }
  }

  folderByPath(path: string): Folder | undefined {
    return [...this.folders.values()].find((folder) => folder.path === path);
  }

  messagesIn(path: string): MessageMeta[] {
    const folder = this.folderByPath(path);
    return folder ? [...this.messages.values()].filter((message) => message.folderId === folder.id) : [];
  }
}

/** Polls `check` until it returns a value (not undefined/false) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Appends messages to a folder as another mail program of the user would (IMAP APPEND, not SMTP). */
export async function appendMessages(fixture: Pick<GatewayFixture, 'otherClient'>, folderPath: string, sources: readonly (string | Buffer)[]): Promise<void> {
  const client = await fixture.otherClient();
  try {
    for (const source of sources) await client.append(folderPath, source);
  } finally {
    await client.logout();
  }
}
