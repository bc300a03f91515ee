// The outbox on the job queue (issue 12 point 4) against the harness's real Postfix and
// Dovecot, on SQLite and PostgreSQL: each stored send is an `outbox.send` job; several job
// workers on one database (gateway nodes, each with its own pool) never send one row twice;
// a node that dies mid-send leaves a claim that lapses, and another node resolves the row —
// sending it again when it died before the final ".", looking in Sent when after. Copies are
// counted in bob's INBOX over IMAP by Message-ID, and every handoff to Postfix is counted.
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { AccountStore } from '../../src-server/accounts/account-store';
import { SecretBox } from '../../src-server/crypto/secret-box';
import { appendMessage, uidsWithMessageId } from '../../src-server/drafts/mailbox-search';
import { JobQueue } from '../../src-server/jobs/job-queue';
import { JobWorker } from '../../src-server/jobs/job-worker';
import { OUTBOX_FILE, OUTBOX_SEND, OutboxJobs } from '../../src-server/outbox/outbox-jobs';
import { OutboxStore, type OutboxRow } from '../../src-server/outbox/outbox-store';
import { OutboxWorker, type SentFiling } from '../../src-server/outbox/outbox-worker';
import { NodemailerSmtp, type SmtpConnector, type SmtpSendParams } from '../../src-server/smtp/smtp-connector';
import { PooledSmtp } from '../../src-server/smtp/smtp-pool';
import type { SqlStore } from '../../src-server/store/sql';
import { startMailServers, type MailServers, type MailUser } from '../harness/mail-servers';
import { useClusterNodes } from './support/cluster-nodes';
import { describeOnEngines } from './support/engines';
import { eventually } from './support/gateway-fixture';
import { startSilentProxy } from './support/silent-proxy';

const BOB: MailUser = { email: 'bob@kite.test', password: 'Bob-jobs-2!' };
/** Three senders: three lanes, so a node works on three rows at once. */
const SENDERS: MailUser[] = [
  { email: 'alice@tern.test', password: 'Alice-jobs-1!' },
  { email: 'carol@tern.test', password: 'Carol-jobs-3!' },
  { email: 'erin@tern.test', password: 'Erin-jobs-4!' },
];
const KEY = 'ab'.repeat(32);
const LOCK_MS = 30_000;

let root: string;
let servers: MailServers;
let bobImap: ImapFlow;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tern-outbox-jobs-'));
  await chmod(root, 0o711);
  servers = await startMailServers({ dataDir: path.join(root, 'mail'), users: [...SENDERS, BOB], fresh: true });
  bobImap = await imap(BOB);
});
afterAll(async () => {
  await bobImap?.logout().catch(() => undefined);
  await servers?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

async function imap(user: MailUser): Promise<ImapFlow> {
  const client = new ImapFlow({ host: servers.host, port: servers.ports.imap, secure: false, auth: { user: user.email, pass: user.password }, logger: false });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function copiesIn(client: ImapFlow, folder: string, messageIdHeader: string): Promise<number> {
  await client.mailboxOpen(folder);
  return (await uidsWithMessageId(client, messageIdHeader)).length;
}

const senderOf = (row: OutboxRow) => SENDERS.find((user) => user.email === row.envelope.from)!;

/** Sent over IMAP, as the gateway's SentFiler does it (its draft and mirror steps have nothing to do here). */
const imapFiling: SentFiling = {
  async isInSent(row) {
    const client = await imap(senderOf(row));
    try {
      return (await copiesIn(client, 'Sent', row.messageIdHeader)) > 0;
    } finally {
      await client.logout();
    }
  },
  async fileCopy(row) {
    const client = await imap(senderOf(row));
    try {
      if ((await copiesIn(client, 'Sent', row.messageIdHeader)) === 0) await appendMessage({ client, path: 'Sent', raw: row.raw, flags: ['\\Seen'], messageIdHeader: row.messageIdHeader });
    } finally {
      await client.logout();
    }
  },
  async fileCopies(rows) {
    for (const row of rows) await imapFiling.fileCopy(row);
  },
  async finish() {},
};

/** The real connector (or `real`), counting the handoffs to Postfix by Message-ID and the attempts under way per sender. */
function countingSmtp(real: SmtpConnector = new NodemailerSmtp()) {
  const handed = new Map<string, number>();
  const active = new Map<string, number>();
  let overlapped = false;
  const idOf = (params: SmtpSendParams) => /^Message-ID: (<[^>]+>)/m.exec(params.raw.toString('latin1'))![1]!;
  const connector: SmtpConnector = {
    async send(params) {
      const from = params.envelope.from;
      active.set(from, (active.get(from) ?? 0) + 1);
      if (active.get(from)! > 1) overlapped = true;
      try {
        const outcome = await real.send(params);
        handed.set(idOf(params), (handed.get(idOf(params)) ?? 0) + 1);
        return outcome;
      } finally {
        active.set(from, active.get(from)! - 1);
      }
    },
  };
  return { connector, handoffs: (id: string) => handed.get(id) ?? 0, overlapped: () => overlapped };
}

describeOnEngines('The outbox on jobs', (engine) => {
  const nodes = useClusterNodes(engine);

  /** One gateway node's outbox on `store`: its queue, its job worker and the outbox's handler. */
  function node(store: SqlStore, smtp: SmtpConnector, name: string, renewEveryMs = 10_000) {
    const accounts = new AccountStore(store, SecretBox.load({ dataDir: root, envKey: KEY }));
    const outbox = new OutboxStore(store, nodes.clock);
    const queue = new JobQueue({ store, now: nodes.clock });
    const jobs = new OutboxJobs(queue, store);
    const sender = new OutboxWorker({ store: outbox, smtp, accounts, filing: imapFiling, fileLater: (row) => jobs.enqueueFiling(row), now: nodes.clock });
    const worker = new JobWorker({ queue, name, options: { lockMs: LOCK_MS, renewEveryMs, idleCheckMs: 50, stopWaitMs: 100 } });
    worker.register(OUTBOX_SEND, sender.handle, sender.retryPolicy);
    worker.register(OUTBOX_FILE, sender.handleFiling, sender.retryPolicy);
    return { outbox, queue, worker, jobs };
  }

  /** The senders' accounts, pointing at the harness (SMTP at `smtpPort`, a proxy in front of Postfix). */
  async function addSenders(store: SqlStore, smtpPort = servers.ports.smtp): Promise<number[]> {
    const accounts = new AccountStore(store, SecretBox.load({ dataDir: root, envKey: KEY }));
    const server = (port: number) => ({ host: servers.host, port, security: 'none' as const });
    const ids: number[] = [];
    for (const user of SENDERS) ids.push((await accounts.save({ email: user.email, name: '', imap: server(servers.ports.imap), smtp: server(smtpPort), password: user.password })).id);
    return ids;
  }

  /** A send as the send service stores it: the row and its job in one transaction. */
  async function queueMail(at: ReturnType<typeof node>, accountId: number, label: string): Promise<OutboxRow> {
    const marker = `${label}-${engine.dialect}-${Math.random().toString(36).slice(2, 10)}`;
    const email = (await nodes.store.get<{ email: string }>('SELECT email FROM accounts WHERE id = ?', [accountId]))!.email;
    const messageIdHeader = `<${marker}@tern.test>`;
    const raw = Buffer.from(`From: <${email}>\r\nTo: <${BOB.email}>\r\nSubject: Jobs ${marker}\r\nMessage-ID: ${messageIdHeader}\r\n\r\nOnce.\r\n`);
    return nodes.store.transaction(async () => {
      const { row } = await at.outbox.enqueue({ accountId, idempotencyKey: marker, requestHash: 'h', draftId: null, parentId: null, messageIdHeader, envelope: { from: email, to: [BOB.email] }, raw, sentCopy: null, uploadIds: [] });
      await at.jobs.enqueue(row);
      return row;
    });
  }

  const arrived = (row: OutboxRow) => eventually(async () => (await copiesIn(bobImap, 'INBOX', row.messageIdHeader)) > 0, 15_000, `${row.messageIdHeader} in bob's INBOX`);

  test('a queued mail is sent once: one copy in bob’s INBOX, one in Sent, the row sent, its job done', async () => {
    const [alice] = await addSenders(nodes.store);
    const smtp = countingSmtp();
    const a = node(nodes.store, smtp.connector, 'node-a');
    const row = await queueMail(a, alice!, 'once');
    expect(await a.worker.runDue()).toBe(1);
    // Handed to SMTP; its Sent copy is a job of its own, due at once (the next pass).
    expect(await a.outbox.get(row.id)).toMatchObject({ state: 'accepted', attempts: 1, sentCopyState: 'pending' });
    expect(await a.worker.runDue()).toBe(1);
    expect(await a.outbox.get(row.id)).toMatchObject({ state: 'sent', attempts: 1, sentCopyState: 'filed' });
    expect(await a.worker.runDue()).toBe(0);
    await arrived(row);
    expect(smtp.handoffs(row.messageIdHeader)).toBe(1);
    expect(await copiesIn(bobImap, 'INBOX', row.messageIdHeader)).toBe(1);
    const aliceImap = await imap(SENDERS[0]!);
    expect(await copiesIn(aliceImap, 'Sent', row.messageIdHeader)).toBe(1);
    await aliceImap.logout();
    const jobs = await nodes.store.all<{ kind: string; state: string; attempts: number }>('SELECT kind, state, attempts FROM jobs ORDER BY id');
    expect(jobs).toEqual([{ kind: OUTBOX_SEND, state: 'done', attempts: 1 }, { kind: OUTBOX_FILE, state: 'done', attempts: 1 }]);
  });

  test('two nodes’ job workers on one database never send a row twice: 12 mails of 3 accounts, each handed over and delivered once, one attempt per account at a time', async () => {
    const senders = await addSenders(nodes.store);
    const smtp = countingSmtp();
    const a = node(nodes.store, smtp.connector, 'node-a');
    const b = node(nodes.nodeStore(), smtp.connector, 'node-b');
    const rows: OutboxRow[] = [];
    for (let i = 0; i < 12; i++) rows.push(await queueMail(i % 2 === 0 ? a : b, senders[i % 3]!, `pair${i}`));
    await Promise.all([a.worker.start(), b.worker.start()]);
    try {
      await eventually(async () => (await Promise.all(rows.map((row) => a.outbox.get(row.id)))).every((row) => row?.state === 'sent'), 30_000, 'every row sent');
    } finally {
      await Promise.all([a.worker.stop(), b.worker.stop()]);
    }
    for (const row of rows) {
      expect(smtp.handoffs(row.messageIdHeader), row.messageIdHeader).toBe(1);
      await arrived(row);
      expect(await copiesIn(bobImap, 'INBOX', row.messageIdHeader)).toBe(1);
    }
    expect(smtp.overlapped()).toBe(false);
  });

  test('many due messages of one account go out on one SMTP connection, each once; one the server closed while idle is replaced, nothing sent twice', async () => {
    // Connections to Postfix are counted by a proxy in front of it.
    const proxy = await startSilentProxy({ host: servers.host, port: servers.ports.smtp });
    const pool = new PooledSmtp();
    try {
      const [alice] = await addSenders(nodes.store, proxy.port);
      const smtp = countingSmtp(pool);
      const a = node(nodes.store, smtp.connector, 'node-a');
      const sendAll = async (rows: OutboxRow[]) => {
        for (let pass = 0; pass < 40 && !(await Promise.all(rows.map((row) => a.outbox.get(row.id)))).every((row) => row?.state === 'sent'); pass++) await a.worker.runDue();
      };
      const first: OutboxRow[] = [];
      for (let i = 0; i < 4; i++) first.push(await queueMail(a, alice!, `pooled${i}`));
      await sendAll(first);
      expect(proxy.accepted).toBe(1);
      proxy.endOpenConnections(); // the server ends the idle session
      const second: OutboxRow[] = [];
      for (let i = 0; i < 2; i++) second.push(await queueMail(a, alice!, `pooled-again${i}`));
      await sendAll(second);
      expect(proxy.accepted).toBe(2);
      for (const row of [...first, ...second]) {
        expect(await a.outbox.get(row.id)).toMatchObject({ state: 'sent', attempts: 1 });
        expect(smtp.handoffs(row.messageIdHeader), row.messageIdHeader).toBe(1);
        await arrived(row);
        expect(await copiesIn(bobImap, 'INBOX', row.messageIdHeader), row.messageIdHeader).toBe(1);
      }
    } finally {
      pool.close();
      await proxy.close();
    }
  });

  test('a node killed mid-send: once its claim lapses another node sends again what died before the ".", finds in Sent what the server filed, and calls the rest unknown', async () => {
    const [alice, carol, erin] = await addSenders(nodes.store);
    const smtp = countingSmtp();
    const stuck = new Set<string>();
    const hang = () => new Promise<never>(() => undefined);
    // Node A dies at a different point of each row's attempt; after that its process is gone (it hangs, renews nothing).
    const dying: SmtpConnector = {
      async send(params) {
        const raw = params.raw.toString('latin1');
        if (raw.includes('before-dot')) {
          stuck.add('before-dot');
          return hang();
        }
        const outcome = await smtp.connector.send(params); // the "." went out and Postfix took it…
        if (raw.includes('filed-by-server')) {
          const client = await imap(SENDERS[1]!); // …and the server filed it in Sent itself (Gmail does)
          await appendMessage({ client, path: 'Sent', raw: params.raw, flags: ['\\Seen'], messageIdHeader: /^Message-ID: (<[^>]+>)/m.exec(raw)![1]! });
          await client.logout();
        }
        stuck.add(raw.includes('filed-by-server') ? 'filed-by-server' : 'after-dot');
        void outcome;
        return hang(); // …and the node died before it recorded the 250
      },
    };
    const a = node(nodes.store, dying, 'node-a', 3_600_000);
    const before = await queueMail(a, alice!, 'before-dot');
    const filed = await queueMail(a, carol!, 'filed-by-server');
    const after = await queueMail(a, erin!, 'after-dot');
    void a.worker.runDue();
    await eventually(() => stuck.size === 3, 15_000, 'node A to reach its three points');
    expect((await a.outbox.get(before.id))!).toMatchObject({ state: 'sending', committedAt: null });
    expect((await a.outbox.get(after.id))!.committedAt).not.toBeNull();

    const b = node(nodes.nodeStore(), smtp.connector, 'node-b');
    expect(await b.worker.runDue()).toBe(0); // A's claims hold while they have not lapsed
    nodes.now += LOCK_MS;
    expect(await b.worker.runDue()).toBe(3);
    expect(await b.worker.runDue()).toBe(2); // the Sent copies of the two accepted ones
    expect(await b.outbox.get(before.id)).toMatchObject({ state: 'sent', attempts: 2 });
    expect(await b.outbox.get(filed.id)).toMatchObject({ state: 'sent', attempts: 1, sentCopyState: 'filed' });
    expect(await b.outbox.get(after.id)).toMatchObject({ state: 'unknown', attempts: 1 });
    expect((await b.outbox.get(after.id))!.lastError).toMatch(/may have been sent/);
    for (const row of [before, filed, after]) {
      expect(smtp.handoffs(row.messageIdHeader), row.messageIdHeader).toBe(1);
      await arrived(row);
      expect(await copiesIn(bobImap, 'INBOX', row.messageIdHeader), row.messageIdHeader).toBe(1);
    }
    const carolImap = await imap(SENDERS[1]!);
    expect(await copiesIn(carolImap, 'Sent', filed.messageIdHeader)).toBe(1); // found there, not filed again
    await carolImap.logout();
    const jobs = await nodes.store.all<{ kind: string; claimedBy: string; state: string }>('SELECT kind, claimed_by AS "claimedBy", state FROM jobs ORDER BY id');
    expect(jobs).toEqual([OUTBOX_SEND, OUTBOX_SEND, OUTBOX_SEND, OUTBOX_FILE, OUTBOX_FILE].map((kind) => ({ kind, claimedBy: 'node-b', state: 'done' })));
  });
});
