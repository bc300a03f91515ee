// Scratch: what the txlog holds right after login (object kinds by position).
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src-server/config';
import { createContext } from '../../src-server/context';
import { createApp } from '../../src-server/http/app';
import { startMailServers } from '../harness/mail-servers';
import { seedMailbox } from '../harness/seed/seed-mailbox';

const ALICE = { email: 'alice@tern.test', password: 'Alice-pass-1!', name: 'Alice Tern' };
const root = await mkdtemp(path.join(os.tmpdir(), 'tern-order-'));
await chmod(root, 0o711);
const servers = await startMailServers({ dataDir: path.join(root, 'mail'), users: [ALICE], fresh: true });
seedMailbox({ maildir: servers.maildirOf(ALICE.email), owner: ALICE, count: 10000 });
await servers.fixOwnership(ALICE.email);
const harness = (port: number) => ({ host: servers.host, port, security: 'none' });
const config = loadConfig({ TERN_HOST: '127.0.0.1', TERN_DATA_DIR: path.join(root, 'gateway'), TERN_PUBLIC_DIR: path.join(process.cwd(), 'public'),
  TERN_MAIL_DOMAINS: JSON.stringify({ 'tern.test': { imap: harness(servers.ports.imap), smtp: harness(servers.ports.smtp) } }) });
const ctx = createContext(config);
const app = await createApp(ctx);
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const t0 = performance.now();
const login = await (await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ALICE) })).json() as { token: string; mailId: string };
console.log('login', Math.round(performance.now() - t0));
const mirror = ctx.mirrors.get(Number(login.mailId))!;
mirror.on('progress', (p) => console.log(Math.round(performance.now() - t0), 'progress', JSON.stringify(p)));
for (let i = 0; i < 12; i++) {
  await new Promise((r) => setTimeout(r, 100));
  const page = await (await fetch(`${base}/api/delta?cursor=0&limit=2000`, { headers: { authorization: `Bearer ${login.token}` } })).json() as { changes: { object: string; op: string; data?: { folderIds?: string[]; folderId?: string } }[] };
  const kinds: Record<string, number> = {};
  for (const c of page.changes) kinds[`${c.object}`] = (kinds[c.object] ?? 0) + 1;
  const threads = await (await fetch(`${base}/api/threads?folderId=${page.changes.find((c) => c.object === 'folder' && (c as {data:{specialUse:string}}).data.specialUse === 'inbox')?.data && (page.changes.find((c) => c.object === 'folder' && (c as {data:{specialUse:string}}).data.specialUse === 'inbox') as {data:{id:string}}).data.id}&limit=50`, { headers: { authorization: `Bearer ${login.token}` } })).json() as { threads?: unknown[] };
  console.log(Math.round(performance.now() - t0), 'latest', ctx.txlog.latest(Number(login.mailId)), JSON.stringify(kinds), 'first-page order:', page.changes.slice(0, 30).map((c) => c.object[0]).join(''), 'inbox threads via /api/threads:', threads.threads?.length);
}
await app.close(); ctx.db.close(); await servers.stop();
