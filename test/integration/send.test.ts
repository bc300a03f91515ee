// POST /api/send against real Postfix + Dovecot: delivery into the recipient's INBOX, one copy
// in Sent, reply headers and threading, SMTP refusals, idempotency and a gateway restart in the
// middle of a send. Mail goes alice@tern.test → bob@kite.test through the harness's Postfix.
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SendResult } from '../../shared/api/compose';
import { NodemailerSmtp, type SmtpConnector } from '../../src-server/smtp/smtp-connector';
import { startFaultProxy, type FaultProxy } from '../crash/fault-proxy';
import { eventually } from './support/gateway-fixture';
import { ALICE, BOB, changesSince, fetchUid, startWritesFixture, uidsByMessageId, type Session, type WritesFixture } from './support/mail-writes-fixture';

let fx: WritesFixture;
let bobImap: ImapFlow;
let aliceImap: ImapFlow;

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'send', count: 40, overrides: { sendWaitMs: 20_000 } });
  await fx.ctx.mirrors.get(fx.alice.accountId)!.whenFullyMirrored;
  bobImap = await fx.imap(BOB);
  aliceImap = await fx.imap(ALICE);
});
afterAll(async () => {
  await bobImap?.logout().catch(() => undefined);
  await aliceImap?.logout().catch(() => undefined);
  await fx?.close();
});

const token = () => `t${Math.random().toString(36).slice(2, 10)}`;
const send = (session: Session, body: unknown) => fx.api<SendResult & { error?: string; detail?: Record<string, unknown> }>(session, 'POST', '/api/send', body);

/**
 * The real SMTP connector, counting what it hands to Postfix per marker: with every attempt
 * done, one handoff is one copy, so "no second copy" needs no waiting for one that never comes.
 */
function countingSmtp() {
  const real = new NodemailerSmtp();
  const handed: string[] = [];
  const connector: SmtpConnector = { send: (params) => (handed.push(params.raw.toString('latin1')), real.send(params)) };
  return { connector, handoffs: (marker: string) => handed.filter((raw) => raw.includes(marker)).length };
}

/** UIDs of messages whose subject contains `marker`, as the user's own IMAP client sees them. */
async function bySubject(client: ImapFlow, folder: string, marker: string): Promise<number[]> {
  await client.mailboxOpen(folder);
  const found = await client.search({ subject: marker }, { uid: true });
  return Array.isArray(found) ? found : [];
}

/** Polls every 10 ms until a message with `marker` is in the folder; returns when (performance.now()). */
async function arrival(client: ImapFlow, folder: string, marker: string, timeoutMs = 15_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if ((await bySubject(client, folder, marker)).length > 0) return performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`"${marker}" did not arrive in ${folder}`);
}

const mirroredId = (accountId: number, messageIdHeader: string) =>
  fx.ctx.store.get<{ id: number; threadId: number; folderId: number }>(
    'SELECT id, thread_id AS "threadId", folder_id AS "folderId" FROM messages WHERE account_id = ? AND message_id_header = ?',
    [accountId, messageIdHeader],
  );

describe('sending', () => {
  test('alice → bob arrives in bob’s INBOX, one copy in alice’s Sent, and the Sent copy is in the delta', async () => {
    const marker = token();
    const cursor = await fx.ctx.txlog.latest(fx.alice.accountId);
    const started = performance.now();
    const arrived = arrival(bobImap, 'INBOX', marker);
    const reply = await send(fx.alice, {
      idempotencyKey: `basic-${marker}`,
      compose: { to: [{ name: 'Bob Kite', email: BOB.email }], subject: `Lunch on Friday? ${marker}`, html: '<p>Shall we <b>meet</b>?</p>' },
    });
    const replied = performance.now();
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ state: 'sent', rejected: [] });
    const inInbox = await arrived;
    console.log(`POST /api/send → reply ${Math.round(replied - started)} ms; → in bob's INBOX ${Math.round(inInbox - started)} ms`);

    const id = reply.body.messageIdHeader;
    expect(await uidsByMessageId(bobImap, 'INBOX', id)).toHaveLength(1);
    expect(await uidsByMessageId(aliceImap, 'Sent', id)).toHaveLength(1);
    const delivered = await bobImap.fetchOne(String((await uidsByMessageId(bobImap, 'INBOX', id))[0]), { source: true }, { uid: true });
    const source = delivered ? delivered.source!.toString() : '';
    expect(source).toContain(`From: ${(await fx.ctx.accounts.get(fx.alice.accountId))!.name} <alice@tern.test>\r\n`);
    expect(source).toContain('multipart/alternative'); // the text part was made from the HTML

    const sentFolder = (await fx.ctx.materializer.folders(fx.alice.accountId)).find((folder) => folder.specialUse === 'sent')!;
    const changes = await changesSince(fx, fx.alice, cursor);
    const sentCopy = changes.find((change) => change.op === 'upsert' && change.object === 'message' && change.data.messageIdHeader === id);
    expect(sentCopy && sentCopy.op === 'upsert' && sentCopy.object === 'message' && sentCopy.data.folderId).toBe(sentFolder.id);
    expect(sentCopy!.txnId).toBeLessThanOrEqual(reply.body.latestTxnId);
  });

  test('a reply carries In-Reply-To and References, joins the thread and flags the parent \\Answered', async () => {
    const marker = token();
    // Bob starts a conversation and follows it up himself (a reply to his own Sent copy).
    const first = await send(fx.bob, { idempotencyKey: `root-${marker}`, compose: { to: [ALICE.email], subject: `Budget ${marker}`, text: 'Numbers attached soon.' } });
    expect(first.status, first.text).toBe(200);
    const bobsCopy = await eventually(() => mirroredId(fx.bob.accountId, first.body.messageIdHeader), 10_000, 'bob’s Sent copy mirrored');
    const second = await send(fx.bob, { idempotencyKey: `follow-${marker}`, compose: { to: [ALICE.email], subject: `Re: Budget ${marker}`, text: 'Here they are.', inReplyTo: String(bobsCopy.id) } });
    expect(second.status, second.text).toBe(200);

    const parent = await eventually(() => mirroredId(fx.alice.accountId, second.body.messageIdHeader), 15_000, 'bob’s follow-up in alice’s mirror');
    const reply = await send(fx.alice, { idempotencyKey: `reply-${marker}`, compose: { to: [BOB.email], subject: `Re: Budget ${marker}`, text: 'Thanks!', inReplyTo: String(parent.id) } });
    expect(reply.status, reply.text).toBe(200);

    await arrival(bobImap, 'INBOX', marker);
    const [uid] = await uidsByMessageId(bobImap, 'INBOX', reply.body.messageIdHeader);
    const headers = (await fetchUid(bobImap, uid!, { headers: ['in-reply-to', 'references'] })).headers!.toString().replace(/\r?\n\s+/g, ' ');
    expect(headers).toContain(`In-Reply-To: ${second.body.messageIdHeader}`);
    expect(headers).toContain(`References: ${first.body.messageIdHeader} ${second.body.messageIdHeader}`);

    const sentReply = await eventually(() => mirroredId(fx.alice.accountId, reply.body.messageIdHeader), 5_000, 'alice’s reply mirrored');
    expect(sentReply.threadId).toBe(parent.threadId);
    await aliceImap.mailboxOpen('INBOX');
    const parentFlags = (await fetchUid(aliceImap, (await fx.ctx.materializer.messageRow(fx.alice.accountId, parent.id))!.uid, { flags: true })).flags!;
    expect(parentFlags.has('\\Answered')).toBe(true);
    expect((await fx.ctx.materializer.message(fx.alice.accountId, parent.id))!.answered).toBe(true);

    const missing = await send(fx.alice, { idempotencyKey: `orphan-${marker}`, compose: { to: [BOB.email], subject: 'x', text: 'x', inReplyTo: '987654321' } });
    expect([missing.status, missing.body.error]).toEqual([404, 'ParentMessageNotFound']);
  });

  test('an unknown recipient is SendFailed with Postfix’s reason and no stack; the same key answers the same', async () => {
    const body = { idempotencyKey: `unknown-${token()}`, compose: { to: ['nobody@kite.test'], subject: 'Hello?', text: 'Anyone?' } };
    const refused = await send(fx.alice, body);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('SendFailed');
    expect(String(refused.body.detail?.reason)).toMatch(/550|User unknown|Recipient address rejected/);
    expect(refused.body.detail?.responseCode).toBe(550);
    expect(refused.text).not.toMatch(/\.ts:\d+|\.js:\d+|\n\s+at /);
    const again = await send(fx.alice, body);
    expect([again.status, again.body.detail?.outboxId]).toEqual([400, refused.body.detail?.outboxId]);
    const status = await fx.api<SendResult>(fx.alice, 'GET', `/api/outbox/${String(refused.body.detail?.outboxId)}`);
    expect(status.body.state).toBe('failed');
    expect((await fx.api(fx.bob, 'GET', `/api/outbox/${String(refused.body.detail?.outboxId)}`)).status).toBe(404);
  });

  test('the same idempotency key twice at once is one row and one delivery', async () => {
    const marker = token();
    const smtp = countingSmtp();
    await fx.restart({ smtp: smtp.connector, sendWaitMs: 20_000 });
    const body = { idempotencyKey: `twice-${marker}`, compose: { to: [BOB.email], subject: `Once ${marker}`, text: 'Only once.' } };
    const [a, b] = await Promise.all([send(fx.alice, body), send(fx.alice, body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.state, b.body.state]).toEqual(['sent', 'sent']); // the attempt is over: no later one
    expect(a.body.outboxId).toBe(b.body.outboxId);
    expect(a.body.messageIdHeader).toBe(b.body.messageIdHeader);
    const third = await send(fx.alice, body);
    expect(third.body.outboxId).toBe(a.body.outboxId);
    await arrival(bobImap, 'INBOX', marker);
    expect(smtp.handoffs(marker)).toBe(1); // one handoff to Postfix: no second copy is on its way
    expect(await bySubject(bobImap, 'INBOX', marker)).toHaveLength(1);
    expect(await bySubject(aliceImap, 'Sent', marker)).toHaveLength(1);
    const reused = await send(fx.alice, { ...body, compose: { ...body.compose, text: 'Something else' } });
    expect([reused.status, reused.body.error]).toEqual([400, 'InvalidParameter']);
  });

  test('a gateway that dies after storing and before SMTP answered: the next one sends it exactly once', async () => {
    const marker = token();
    const stalled: SmtpConnector = { send: () => new Promise(() => undefined) };
    await fx.restart({ smtp: stalled, sendWaitMs: 500 });
    const body = { idempotencyKey: `crash-${marker}`, compose: { to: [BOB.email], subject: `Crash ${marker}`, text: 'Survives a restart.' } };
    const first = await send(fx.alice, body);
    expect(first.status, first.text).toBe(202);
    expect(first.body.state).toBe('sending');

    // The process "dies": the attempt never finished, nothing reached Postfix.
    const smtp = countingSmtp();
    await fx.restart({ smtp: smtp.connector, sendWaitMs: 20_000 });
    await arrival(bobImap, 'INBOX', marker);
    const retry = await send(fx.alice, body); // the client retries on the new gateway with the same key
    expect(retry.body.outboxId).toBe(first.body.outboxId);
    expect(retry.body.state).toBe('sent');
    expect(smtp.handoffs(marker)).toBe(1); // sent once after the restart, and the retry sent nothing more
    expect(await bySubject(bobImap, 'INBOX', marker)).toHaveLength(1);
    expect(await bySubject(aliceImap, 'Sent', marker)).toHaveLength(1);
  });

  test('requests without a recipient, with a foreign From or a bad key are refused', async () => {
    const cases = [
      { idempotencyKey: 'short', compose: { to: [BOB.email], text: 'x' } },
      { idempotencyKey: `norcpt-${token()}`, compose: { subject: 'x', text: 'x' } },
      { idempotencyKey: `from-${token()}`, compose: { from: 'mallory@tern.test', to: [BOB.email], text: 'x' } },
      { idempotencyKey: `both-${token()}`, draftId: '1', compose: { to: [BOB.email] } },
      { idempotencyKey: `bad-${token()}`, compose: { to: ['not an address'] } },
    ];
    for (const body of cases) {
      const reply = await send(fx.alice, body);
      expect([reply.status, reply.body.error], JSON.stringify(body)).toEqual([400, 'InvalidParameter']);
    }
  });
});

// Postfix reached through a fault-injecting proxy (test/crash/fault-proxy.ts) that lets the final
// "." through and holds or cuts the reply: the SMTP window where the server may have the message
// and the gateway does not know. Postfix is real: what it took is in bob's INBOX.
describe('exactly once around the final "."', () => {
  let proxy: FaultProxy;
  const statusOf = async (outboxId: string) => (await fx.api<SendResult>(fx.alice, 'GET', `/api/outbox/${outboxId}`)).body;
  const smtpPort = (port: number) => fx.ctx.store.run('UPDATE accounts SET smtp_port = ? WHERE id = ?', [port, fx.alice.accountId]);

  beforeAll(async () => {
    proxy = await startFaultProxy({ host: fx.servers.host, port: fx.servers.ports.smtp });
    await smtpPort(proxy.port);
  });
  afterAll(async () => {
    await smtpPort(fx.servers.ports.smtp);
    await proxy?.close();
  });

  test('killed after the "." and before the 250: delivered once, `unknown` on the next gateway, never resent on its own; resend sends it again', async () => {
    const marker = token();
    await fx.restart({ sendWaitMs: 300 });
    const dot = proxy.arm('smtp-hold-after-dot');
    const first = await send(fx.alice, { idempotencyKey: `dot-${marker}`, compose: { to: [BOB.email], subject: `After the dot ${marker}`, text: 'Once.' } });
    expect(first.body.state).toBe('sending');
    await dot;
    await arrival(bobImap, 'INBOX', marker); // Postfix took it; its 250 is held back
    // The gateway dies with the reply outstanding; its dead connection goes with it.
    await fx.restart({ sendWaitMs: 20_000 });
    proxy.release('drop');
    const unknown = await eventually(async () => {
      const status = await statusOf(first.body.outboxId);
      return status.state === 'unknown' || status.state === 'sent' ? status : undefined;
    }, 15_000, 'the outbox row to settle after the restart');
    expect(unknown.state).toBe('unknown');
    expect(unknown.lastError).toMatch(/may have been sent/);
    expect(await uidsByMessageId(bobImap, 'INBOX', first.body.messageIdHeader)).toHaveLength(1);
    expect(await uidsByMessageId(aliceImap, 'Sent', first.body.messageIdHeader)).toHaveLength(0);
    // The client's retry of the same request is answered with the same unknown outcome, not a second send.
    const retry = await send(fx.alice, { idempotencyKey: `dot-${marker}`, compose: { to: [BOB.email], subject: `After the dot ${marker}`, text: 'Once.' } });
    expect([retry.status, retry.body.outboxId, retry.body.state]).toEqual([200, first.body.outboxId, 'unknown']);

    // The person checks and asks to send it again: a second delivery, on purpose.
    const resent = await fx.api<SendResult>(fx.alice, 'POST', `/api/outbox/${first.body.outboxId}/resend`);
    expect([resent.status, resent.body.state, resent.body.sentCopy], resent.text).toEqual([200, 'sent', 'filed']);
    await eventually(async () => (await uidsByMessageId(bobImap, 'INBOX', first.body.messageIdHeader)).length === 2, 15_000, 'the resent copy in bob’s INBOX');
    expect(await uidsByMessageId(aliceImap, 'Sent', first.body.messageIdHeader)).toHaveLength(1);
    const again = await fx.api<{ error: string; detail: { state: string } }>(fx.alice, 'POST', `/api/outbox/${first.body.outboxId}/resend`);
    expect([again.status, again.body.error, again.body.detail.state]).toEqual([404, 'InvalidOperation', 'sent']);
  });

  test('NodemailerSmtp awaits its commit point before the "." reaches Postfix; a commit that cannot be recorded sends no "." and nothing arrives', async () => {
    const smtp = new NodemailerSmtp();
    const account = { email: ALICE.email, smtp: { host: fx.servers.host, port: proxy.port, security: 'none' as const } };
    const message = (marker: string) => ({
      account,
      password: ALICE.password,
      envelope: { from: ALICE.email, to: [BOB.email] },
      raw: Buffer.from(`From: <${ALICE.email}>\r\nTo: <${BOB.email}>\r\nSubject: Commit ${marker}\r\nMessage-ID: <${marker}@tern.test>\r\n\r\n.leading dot\r\nbody\r\n`),
    });
    let committed = false;
    let committedWhenTheDotArrived: boolean | null = null;
    const dot = proxy.arm('smtp-hold-after-dot');
    void dot.then(() => {
      committedWhenTheDotArrived = committed;
      proxy.release('deliver');
    });
    const first = token();
    // A commit point written over the network (PostgreSQL) takes a while: the "." waits for it.
    const slowCommit = async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      committed = true;
    };
    const outcome = await smtp.send({ ...message(first), onCommit: slowCommit });
    expect(committedWhenTheDotArrived).toBe(true);
    expect(outcome).toMatchObject({ accepted: [BOB.email], rejected: [] });
    expect(outcome.response).toMatch(/^250 /);

    const refused = token();
    await expect(smtp.send({ ...message(refused), onCommit: async () => { throw new Error('the outbox is closed'); } })).rejects.toThrow(/the outbox is closed/);
    const control = token();
    await smtp.send(message(control));
    await arrival(bobImap, 'INBOX', control);
    await arrival(bobImap, 'INBOX', first);
    expect(await bySubject(bobImap, 'INBOX', refused)).toEqual([]);
  });

  test('a connection lost after the "." (no restart) is `unknown`, not retried; dismiss files it in Sent', async () => {
    const marker = token();
    const dropped = proxy.arm('smtp-drop-after-dot');
    const reply = await send(fx.alice, { idempotencyKey: `drop-${marker}`, compose: { to: [BOB.email], subject: `Lost reply ${marker}`, text: 'Maybe.' } });
    await dropped;
    expect([reply.status, reply.body.state, reply.body.sentCopy], reply.text).toEqual([200, 'unknown', undefined]);
    await arrival(bobImap, 'INBOX', marker);
    expect(await uidsByMessageId(bobImap, 'INBOX', reply.body.messageIdHeader)).toHaveLength(1);
    expect((await fx.api(fx.bob, 'POST', `/api/outbox/${reply.body.outboxId}/dismiss`)).status).toBe(404); // not bob's

    const dismissed = await fx.api<SendResult>(fx.alice, 'POST', `/api/outbox/${reply.body.outboxId}/dismiss`);
    expect([dismissed.status, dismissed.body.state, dismissed.body.sentCopy]).toEqual([200, 'sent', 'filed']);
    expect(await uidsByMessageId(aliceImap, 'Sent', reply.body.messageIdHeader)).toHaveLength(1);
    expect(await uidsByMessageId(bobImap, 'INBOX', reply.body.messageIdHeader)).toHaveLength(1);
  });
});


// Dovecot behind the fault proxy refusing every APPEND with NO [OVERQUOTA]: the message goes
// out, but its Sent copy cannot be stored. It is retried, then said so — never marked filed.
describe('a Sent copy that cannot be filed', () => {
  let proxy: FaultProxy;
  const imapPort = (port: number) => fx.ctx.store.run('UPDATE accounts SET imap_port = ? WHERE id = ?', [port, fx.alice.accountId]);

  beforeAll(async () => {
    proxy = await startFaultProxy({ host: fx.servers.host, port: fx.servers.ports.imap });
    await imapPort(proxy.port);
  });
  afterAll(async () => {
    await imapPort(fx.servers.ports.imap);
    await fx.restart({ sendWaitMs: 20_000 });
    await proxy?.close();
  });

  test('is retried, then the send is `sent` with sentCopy `failed` and the server’s reason; bob has it once, Sent has none', async () => {
    await fx.restart({ sendWaitMs: 20_000, outbox: { maxFilingAttempts: 3, retry: { firstDelayMs: 100, factor: 1 } } });
    proxy.refuseAppends(true);
    const marker = token();
    const reply = await send(fx.alice, { idempotencyKey: `nofile-${marker}`, compose: { to: [BOB.email], subject: `No Sent copy ${marker}`, text: 'Out, not filed.' } });
    expect([reply.status, reply.body.state, reply.body.sentCopy], reply.text).toEqual([200, 'accepted', 'pending']);
    const done = await eventually(async () => {
      const status = (await fx.api<SendResult>(fx.alice, 'GET', `/api/outbox/${reply.body.outboxId}`)).body;
      return status.state === 'sent' ? status : undefined;
    }, 15_000, 'the filing retries to end');
    proxy.refuseAppends(false);
    expect(done.sentCopy).toBe('failed');
    expect(done.lastError).toMatch(/not filed in Sent: .*OVERQUOTA|not filed in Sent: .*Quota/i);
    expect(await arrival(bobImap, 'INBOX', marker)).toBeGreaterThan(0);
    expect(await uidsByMessageId(bobImap, 'INBOX', reply.body.messageIdHeader)).toHaveLength(1);
    expect(await uidsByMessageId(aliceImap, 'Sent', reply.body.messageIdHeader)).toHaveLength(0);
  });

  test('a draft the server refuses to store is the catalogue error with the server’s words, not a 500', async () => {
    await fx.restart({ sendWaitMs: 20_000 }); // its IMAP connections go through the proxy from now on
    proxy.refuseAppends(true);
    try {
      const saved = await fx.api<{ error: string; detail: { folder: string; server: string } }>(fx.alice, 'POST', '/api/drafts', { version: 0, to: [BOB.email], subject: `Refused ${token()}`, text: 'Kept on the device.' });
      expect([saved.status, saved.body.error], saved.text).toEqual([402, 'MailQuotaFull']);
      expect(saved.body.detail.server).toMatch(/quota/i);
      expect(saved.body.detail.folder).toBe('Drafts');
    } finally {
      proxy.refuseAppends(false);
    }
  });
});
