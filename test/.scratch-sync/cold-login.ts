// Scratch: where does a cold login's time go? (gateway mirror vs worker)
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import WebSocket from 'ws';
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { accountFromLogin } from '../../shared/account';
import { loadConfig } from '../../src-server/config';
import { createContext } from '../../src-server/context';
import { createApp } from '../../src-server/http/app';
import { startMailServers } from '../harness/mail-servers';
import { seedMailbox } from '../harness/seed/seed-mailbox';
import { ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA } from '../../src-worker/accounts/accounts-database';
import { AccountRepository } from '../../src-worker/accounts/account-repository';
import { createGatewayLogin } from '../../src-worker/accounts/gateway-login';
import { AccountDatabases } from '../../src-worker/db/account-databases';
import { idbStoreFactory } from '../../src-worker/db/idb-store';
import { lazyStore } from '../../src-worker/db/lazy-store';
import { createMailEngine } from '../../src-worker/mail-engine';
import type { WebSocketLike } from '../../src-worker/sync/push-socket';

const COUNT = Number(process.env.COUNT ?? 10000);
const ALICE = { email: 'alice@tern.test', password: 'Alice-pass-1!', name: 'Alice Tern' };
const root = await mkdtemp(path.join(os.tmpdir(), 'tern-cold-'));
await chmod(root, 0o711);
const servers = await startMailServers({ dataDir: path.join(root, 'mail'), users: [ALICE], fresh: true });
seedMailbox({ maildir: servers.maildirOf(ALICE.email), owner: ALICE, count: COUNT });
await servers.fixOwnership(ALICE.email);
const harness = (port: number) => ({ host: servers.host, port, security: 'none' });
const config = loadConfig({ TERN_HOST: '127.0.0.1', TERN_DATA_DIR: path.join(root, 'gateway'), TERN_PUBLIC_DIR: path.join(process.cwd(), 'public'),
  TERN_MAIL_DOMAINS: JSON.stringify({ 'tern.test': { imap: harness(servers.ports.imap), smtp: harness(servers.ports.smtp) } }) });
const ctx = createContext(config);
const app = await createApp(ctx);
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const stores = idbStoreFactory(new IDBFactory());
const repository = new AccountRepository(lazyStore(stores, ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA));
const databases = new AccountDatabases({ factory: stores, tabId: 'x', channel: { postMessage: () => {}, addEventListener: () => {}, close: () => {} } });
const t0 = performance.now();
const mark = (what: string) => console.log(`${Math.round(performance.now() - t0)} ms  ${what}`);
const outcome = await createGatewayLogin({ fetch, apiBase: `${base}/api` }).login(ALICE);
if (outcome.kind !== 'logged-in') throw new Error('login');
mark('login answered');
await repository.save(accountFromLogin(outcome.login), { accountId: outcome.login.mailId, justLoggedIn: true, webSocketKind: null, trackingHeader: '0:1' });
const engine = createMailEngine({ databases, accounts: repository, fetch, connectSocket: (url) => new WebSocket(url) as unknown as WebSocketLike, statusUrl: `${base}/status.png` });
let first = true;
const accountId = outcome.login.mailId;
void engine.syncAccounts();
const folders = await (async () => { for (;;) { const f = await engine.queries.listFolders({ accountId }).catch(() => []); if (f.length) return f; await new Promise((r) => setTimeout(r, 10)); } })();
mark(`folders (${folders.length})`);
const inbox = folders.find((f) => f.specialUse === 'inbox')!;
const snap = await engine.queries.watchThreadList({ scope: { kind: 'folder', accountId, folderId: inbox.id }, window: { offset: 0, limit: 50 } }, (p) => { if (first && (p.rows?.length || p.changed?.length)) { first = false; mark(`first inbox patch (total ${p.total})`); } });
if (snap.rows.length) mark(`inbox snapshot already has ${snap.rows.length} rows`);
const mirror = ctx.mirrors.get(Number(accountId))!;
void mirror.whenFullyMirrored.then(() => mark('gateway fully mirrored'));
let lastApplied = -1;
for (;;) {
  const rt = engine.runtime(accountId);
  if (rt && rt.sync.state.appliedTransactionId !== lastApplied) { lastApplied = rt.sync.state.appliedTransactionId; mark(`applied ${lastApplied} (gateway latest ${ctx.txlog.latest(Number(accountId))}, phase ${rt.sync.state.phase}) firstInbox=${mirror.progress.firstInboxPageMs}`); }
  if (rt && rt.sync.state.phase === 'idle' && rt.sync.state.appliedTransactionId >= ctx.txlog.latest(Number(accountId)) && (await Promise.race([mirror.whenFullyMirrored.then(() => true), new Promise((r) => setTimeout(() => r(false), 10))]))) break;
  await new Promise((r) => setTimeout(r, 20));
}
mark(`worker caught up (applied ${engine.runtime(accountId)!.sync.state.appliedTransactionId})`);
engine.close(); await app.close(); ctx.db.close(); await servers.stop();
