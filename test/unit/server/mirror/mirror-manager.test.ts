/**
 * MirrorManager over the gateway's own stores: the account and the sessions are read from
 * the database (async since issue 12), and a login still starts exactly one mirror. The
 * IMAP server here is a closed port: the mirrors only try to connect, which is all these
 * tests need of them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { loadConfig } from '../../../../src-server/config';
import { closeContext, createContext, type GatewayContext } from '../../../../src-server/context';
import type { AccountMirror } from '../../../../src-server/mirror/account-mirror';
import { MirrorManager } from '../../../../src-server/mirror/mirror-manager';

const nowhere = { host: '127.0.0.1', port: 1, security: 'none' as const };

let dir: string;
let ctx: GatewayContext;
let accountId: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-mirrors-'));
  ctx = await createContext(loadConfig({ TERN_DATA_DIR: dir, TERN_DATABASE_FILE: ':memory:' }), { reportError: () => undefined });
  accountId = (await ctx.accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: nowhere, smtp: nowhere, password: 'x' })).id;
});
afterEach(async () => {
  await ctx.mirrors.stopAll();
  await closeContext(ctx);
  await rm(dir, { recursive: true, force: true });
});

const stopped = (mirror: AccountMirror) => new Promise<void>((resolve) => mirror.on('state', (state) => state === 'stopped' && resolve()));

test('two logins of one account at once start one mirror', async () => {
  const [first, second] = await Promise.all([ctx.mirrors.onLogin(accountId), ctx.mirrors.onLogin(accountId)]);
  expect(second).toBe(first);
  expect(ctx.mirrors.get(accountId)).toBe(first);
});

test('a login for an account the store does not hold starts nothing', async () => {
  await expect(ctx.mirrors.onLogin(accountId + 1)).rejects.toThrow(`No account ${accountId + 1}`);
  expect(ctx.mirrors.get(accountId + 1)).toBeUndefined();
});

test('start-up mirrors the accounts with live sessions; the last session ending stops the mirror', async () => {
  const token = await ctx.sessions.create(accountId);
  await ctx.mirrors.startActive();
  const mirror = ctx.mirrors.get(accountId)!;
  expect(mirror).toBeDefined();
  const gone = stopped(mirror);
  await ctx.sessions.end(await ctx.sessions.verify(token));
  await gone;
  expect(ctx.mirrors.get(accountId)).toBeUndefined();
});

test('what a reader learns (exact attachment sizes) is written through the running mirror’s store; with leases, a node without the account’s mirror writes nothing', async () => {
  const alone = ctx.mirrors.writerFor(accountId); // one node, no leases: the store itself
  expect(alone).not.toBeNull();
  const mirror = (await ctx.mirrors.onLogin(accountId))!;
  expect(ctx.mirrors.writerFor(accountId)).toBe(mirror.store);
  const leased = new MirrorManager({ accounts: ctx.accounts, sessions: ctx.sessions, store: alone!, ownership: { leases: {} as never, holder: 'node-b', ttlMs: 9_000 } });
  expect(leased.writerFor(accountId)).toBeNull(); // another node owns it: its mirror is that node's to write
  await leased.stopAll();
});
