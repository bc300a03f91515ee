/**
 * The scale-out path (DESIGN §7, issue 12 point 6) with real processes: Dovecot and Postfix,
 * PostgreSQL, Redis, three built gateway nodes and HAProxy in front (test/harness/cluster.ts).
 * A login through the balancer gets one node the account's lease; new mail reaches the
 * websocket whatever node holds it; kill -9 of that node moves the lease to another, whose
 * IDLE brings the next mail, with no transaction id used twice and no message lost. Mail
 * leaves through a fault proxy in front of Postfix: kill -9 of the node sending a message
 * after its final "." leaves a job claim that lapses, and another node finishes the message
 * without sending it again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { deltaResponseSchema, type DeltaResponse } from '../../shared/api/delta';
import { loginResponseSchema } from '../../shared/api/account';
import { openStore } from '../../src-server/store/open-store';
import type { SqlStore } from '../../src-server/store/sql';
import { startFaultProxy, type FaultProxy } from '../crash/fault-proxy';
import { startCluster, type Cluster } from '../harness/cluster';
import { startMailServers, type MailServers } from '../harness/mail-servers';
import { findFreePorts } from '../harness/ports';
import { eventually } from './support/gateway-fixture';

const ALICE = { email: 'alice@tern.test', password: 'Alice-pass-1!' };
let root: string;
let servers: MailServers;
let cluster: Cluster;
let store: SqlStore;
let token: string;
let smtpProxy: FaultProxy;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tern-cluster-'));
  await chmod(root, 0o711); // the mail daemons' users must reach <root>/mail
  servers = await startMailServers({ dataDir: join(root, 'mail'), users: [ALICE], fresh: true });
  const [balancerPort] = await findFreePorts(1);
  smtpProxy = await startFaultProxy({ host: servers.host, port: servers.ports.smtp });
  const mail = { imap: { host: servers.host, port: servers.ports.imap, security: 'none' }, smtp: { host: servers.host, port: smtpProxy.port, security: 'none' } };
  // Job claims of 3 s: a dead node's outgoing message is finished by another within seconds.
  const env = { TERN_MAIL_DOMAINS: JSON.stringify({ 'tern.test': mail }), TERN_LOG_LEVEL: 'warn', TERN_JOB_CLAIM_MS: '3000' };
  cluster = await startCluster({ dir: join(root, 'cluster'), port: balancerPort!, nodeCount: 3, env });
  store = await openStore({ databaseUrl: cluster.databaseUrl, dataDir: root, databaseFile: 'unused' });
  const reply = await fetch(`${cluster.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ALICE) });
  expect(reply.status).toBe(200);
  token = loginResponseSchema.parse(await reply.json()).token;
});
afterAll(async () => {
  await store?.close();
  await cluster?.stop();
  await smtpProxy?.close();
  await servers?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const lease = () => store.get<{ holder: string; token: number; expiresAt: number }>('SELECT holder, token, expires_at AS "expiresAt" FROM account_leases');
/** The node whose process holds the lease (the holder is "<host>:<pid>:<random>"). */
const ownerNode = async () => {
  const pid = Number((await lease())?.holder.split(':')[1]);
  return cluster.nodes().find((node) => node.gateway.child.pid === pid);
};

async function delta(cursor: number): Promise<DeltaResponse> {
  const reply = await fetch(`${cluster.url}/api/delta?cursor=${cursor}&limit=2000`, { headers: { authorization: `Bearer ${token}` } });
  if (!reply.ok) throw new Error(`delta answered ${reply.status}`);
  return deltaResponseSchema.parse(await reply.json());
}

async function deliver(subject: string): Promise<void> {
  const transport = createTransport({ host: servers.host, port: servers.ports.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: 'bob@kite.test', to: ALICE.email, subject, text: `${subject}.` });
  } finally {
    transport.close();
  }
}

/** Every change from the start of the log, page by page, with the txn ids seen. */
async function wholeLog() {
  const ids: number[] = [];
  const subjects = new Map<string, number>();
  for (let cursor = 0; ; ) {
    const page = await delta(cursor);
    for (const change of page.changes) {
      ids.push(change.txnId);
      if (change.op === 'upsert' && change.object === 'message') subjects.set((change.data as { subject: string }).subject, (subjects.get((change.data as { subject: string }).subject) ?? 0) + 1);
    }
    cursor = page.cursor;
    if (!page.hasMore) return { ids, subjects };
  }
}

/** The push socket through the balancer: every latestTxnId it was told, as they come. */
function pushSocket(): { readonly told: number[]; close: () => void } {
  const told: number[] = [];
  const socket = new WebSocket(`${cluster.url.replace('http', 'ws')}/ae/ws/create?st=${token}`);
  socket.on('message', (data) => told.push((JSON.parse(String(data)) as { latestTxnId: number }).latestTxnId));
  return { told, close: () => socket.close() };
}

test('one node holds the account; new mail reaches a websocket held through the balancer', async () => {
  const held = await eventually(async () => (await lease()) ?? undefined, 20_000, 'the account lease');
  expect(held.expiresAt).toBeGreaterThan(Date.now());
  expect(await ownerNode()).toBeDefined();
  const push = pushSocket();
  try {
    await eventually(() => push.told.length > 0, 10_000, 'the socket’s first frame');
    await deliver('Through the cluster');
    await eventually(async () => (await wholeLog()).subjects.has('Through the cluster') || undefined, 20_000, 'the new mail in the log');
    const mailLogged = (await delta(0)).cursor;
    // Told by whichever node holds the socket, whichever node mirrored the mail.
    await eventually(() => push.told.some((latest) => latest >= mailLogged), 10_000, 'a frame with the new mail’s transaction');
  } finally {
    push.close();
  }
});

test('a folder created through a node that does not hold the account: answered with the folder, which came from the owner’s mirror', async () => {
  const owner = (await ownerNode())!;
  const other = cluster.nodes().find((node) => node !== owner)!;
  const reply = await fetch(`http://127.0.0.1:${other.port}/api/folders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Made on another node' }),
  });
  expect(reply.status, await reply.clone().text()).toBe(201);
  const { folder } = (await reply.json()) as { folder: { id: string; name: string } };
  expect(folder.name).toBe('Made on another node');
  const row = await store.get<{ id: number }>("SELECT id FROM folders WHERE path = 'Made on another node'");
  expect(String(row?.id)).toBe(folder.id);
  expect((await ownerNode())?.name).toBe(owner.name); // the owner wrote it: the lease did not move
});

test('kill -9 of the node sending a message, after its final ".": another node finishes it once the claim lapses; delivered once, never sent again', async () => {
  const marker = `Sent through a dying node ${Date.now()}`;
  const key = `cluster-${Date.now()}`;
  const dot = smtpProxy.arm('smtp-hold-after-dot');
  const via = cluster.nodes()[0]!;
  void fetch(`http://127.0.0.1:${via.port}/api/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ idempotencyKey: key, compose: { to: [ALICE.email], subject: marker, text: 'Once.' } }),
  }).catch(() => null);
  await dot; // the "." reached Postfix, its 250 is held: the message is out, the node does not know
  const claimed = await store.get<{ claimedBy: string }>(`SELECT claimed_by AS "claimedBy" FROM jobs WHERE kind = 'outbox.send' AND state = 'running'`);
  const sender = cluster.nodes().find((node) => node.gateway.child.pid === Number(claimed!.claimedBy.split(':')[1]))!;
  await cluster.kill(sender.name);
  smtpProxy.release('drop');
  const row = await eventually(async () => {
    const now = await store.get<{ state: string; attempts: number; lastError: string }>('SELECT state, attempts, last_error AS "lastError" FROM outbox WHERE idempotency_key = ?', [key]);
    return now && now.state !== 'sending' && now.state !== 'queued' ? now : undefined;
  }, 20_000, 'another node to resolve the message');
  expect([row.state, row.attempts]).toEqual(['unknown', 1]); // not in Sent: "may have been sent", never sent again on its own
  expect(row.lastError).toMatch(/may have been sent/);
  // The job is marked done once its handler has returned, a step after the row's commit point.
  const job = await eventually(async () => {
    const latest = await store.get<{ claimedBy: string; state: string }>(`SELECT claimed_by AS "claimedBy", state FROM jobs WHERE kind = 'outbox.send' ORDER BY id DESC LIMIT 1`);
    return latest?.state === 'running' ? undefined : latest;
  }, 10_000, 'the job to finish');
  expect(job).toMatchObject({ state: 'done' });
  expect(job!.claimedBy).not.toBe(claimed!.claimedBy);
  const imap = new ImapFlow({ host: servers.host, port: servers.ports.imap, secure: false, auth: { user: ALICE.email, pass: ALICE.password }, logger: false });
  imap.on('error', () => undefined);
  await imap.connect();
  try {
    await imap.mailboxOpen('INBOX');
    const copies = await eventually(async () => {
      const found = await imap.search({ subject: marker }, { uid: true });
      return Array.isArray(found) && found.length > 0 ? found : undefined;
    }, 15_000, 'the message in the INBOX');
    expect(copies).toHaveLength(1);
  } finally {
    await imap.logout();
  }
});

test('kill -9 of the owning node: another node takes the lease and its IDLE brings the next mail; no txn id twice, nothing lost', async () => {
  const owner = (await ownerNode())!;
  const first = (await lease())!;
  await cluster.kill(owner.name);
  // The lease lapses (its TTL) and a surviving node takes it with a larger token.
  const moved = await eventually(async () => {
    const now = await lease();
    return now && now.token > first.token && now.holder !== first.holder ? now : undefined;
  }, 30_000, 'the lease on another node');
  expect(cluster.nodes().some((node) => node !== owner && node.gateway.child.pid === Number(moved.holder.split(':')[1]))).toBe(true);
  await deliver('After the failover');
  await eventually(async () => (await wholeLog()).subjects.has('After the failover') || undefined, 30_000, 'the mail delivered after the failover');
  const log = await wholeLog();
  expect(new Set(log.ids).size).toBe(log.ids.length);
  for (const subject of ['Through the cluster', 'After the failover']) expect(log.subjects.get(subject)).toBe(1);
});
