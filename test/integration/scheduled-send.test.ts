// Held (undo) and scheduled sends on the gateway (issue 15 points 1–2), against the harness's
// real Postfix and Dovecot: the gateway's clock is one the test moves (no real waiting for a
// hold or a schedule), then the job worker is kicked. Copies are counted in bob's INBOX over
// IMAP by Message-ID; every handoff to Postfix is counted too, so "nothing was sent" is read
// from the connector once the due jobs have run, not from waiting for a copy that never comes.
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CancelledSend, PendingSends, SendResult } from '../../shared/api/compose';
import { SENT_LATE_KEYWORD, utcToLocal } from '../../shared/send-time';
import { NodemailerSmtp, type SmtpConnector } from '../../src-server/smtp/smtp-connector';
import { eventually } from './support/gateway-fixture';
import { ALICE, BOB, changesSince, fetchUid, startWritesFixture, uidsByMessageId, type WritesFixture } from './support/mail-writes-fixture';

type Reply = SendResult & CancelledSend & { error?: string; detail?: Record<string, unknown> };

/** The gateway's clock: real time moved on by the test. */
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
const handed: string[] = [];
const real = new NodemailerSmtp();
const smtp: SmtpConnector = {
  send: (params) => {
    const raw = params.raw.toString('latin1');
    handed.push(raw);
    // The server refuses this one for good (a 5xx): the scheduled send fails.
    if (raw.includes('Refused for good')) return Promise.reject(Object.assign(new Error('550 5.1.1 No such user'), { responseCode: 550, response: '550 5.1.1 No such user' }));
    return real.send(params);
  },
};
const handoffs = (messageIdHeader: string) => handed.filter((raw) => raw.includes(messageIdHeader)).length;

let fx: WritesFixture;
/** The scheduled message that left on time (its Sent copy has no late mark). */
let onTimeMessageId: string | undefined;
let bobImap: ImapFlow;

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'scheduled-send', count: 5, overrides: { smtp, now } });
  bobImap = await fx.imap(BOB);
});
afterAll(async () => {
  await bobImap?.logout().catch(() => undefined);
  await fx?.close();
});

const token = () => `t${Math.random().toString(36).slice(2, 12)}`;
const api = (method: string, url: string, body?: unknown) => fx.api<Reply>(fx.alice, method, url, body);
const compose = (subject: string) => ({ to: [BOB.email], subject, text: `Body of ${subject}` });
const copiesAtBob = async (messageIdHeader: string) => (await uidsByMessageId(bobImap, 'INBOX', messageIdHeader)).length;

/** Moves the gateway's clock and runs what is due now (the worker's own loop would, later). */
async function advance(ms: number): Promise<void> {
  offsetMs += ms;
  await fx.ctx.jobs.worker.runDue();
}

test('undo within the hold sends nothing; without undo one copy leaves at the end of the hold; undo after that says it left', async () => {
  const undone = await api('POST', '/api/send', { idempotencyKey: token(), compose: compose('Held and undone'), holdMs: 10_000 });
  expect(undone.status).toBe(202);
  expect(undone.body).toMatchObject({ state: 'queued', scheduled: false });
  expect(undone.body.sendAt).toBeGreaterThan(now() + 9_000);
  const kept = await api('POST', '/api/send', { idempotencyKey: token(), compose: compose('Held and kept'), holdMs: 10_000 });
  // Both wait on the gateway: any tab (any device) reads them through delta's `scheduled` document.
  const waiting = await fx.api<PendingSends>(fx.alice, 'GET', '/api/scheduled');
  expect(waiting.body.sends.map((item) => item.outboxId)).toEqual(expect.arrayContaining([undone.body.outboxId, kept.body.outboxId]));

  // Nothing leaves before its time, even with the worker looking.
  await advance(5_000);
  expect(handoffs(undone.body.messageIdHeader) + handoffs(kept.body.messageIdHeader)).toBe(0);

  const undo = await api('POST', `/api/outbox/${undone.body.outboxId}/undo`);
  expect(undo.status).toBe(200);
  expect(undo.body.outboxId).toBe(undone.body.outboxId);
  // The same undo again (a second tab) is the same answer; a retried send with its key says cancelled.
  expect((await api('POST', `/api/outbox/${undone.body.outboxId}/undo`)).status).toBe(200);

  await advance(10_000);
  await eventually(async () => (await copiesAtBob(kept.body.messageIdHeader)) === 1, 15_000, 'the kept message at bob');
  expect(handoffs(kept.body.messageIdHeader)).toBe(1);
  expect(handoffs(undone.body.messageIdHeader)).toBe(0);
  expect(await copiesAtBob(undone.body.messageIdHeader)).toBe(0);
  expect((await api('GET', `/api/outbox/${undone.body.outboxId}`)).body.state).toBe('cancelled');

  const late = await api('POST', `/api/outbox/${kept.body.outboxId}/undo`);
  expect(late.status).toBe(410);
  expect(late.body.error).toBe('SendAlreadyLeft');
});

test('a scheduled mail leaves at its time, once, with the time it left as its Date; it is listed until then', async () => {
  const zone = 'Europe/Berlin';
  // Two hours ahead, on the minute, as the picker gives it.
  const at = utcToLocal(now() + 2 * 3600_000, zone);
  const scheduled = await api('POST', '/api/send', { idempotencyKey: token(), compose: compose('Scheduled on time'), schedule: { at, timeZone: zone } });
  expect(scheduled.status).toBe(202);
  expect(scheduled.body).toMatchObject({ state: 'queued', scheduled: true });
  const sendAt = scheduled.body.sendAt!;
  expect(utcToLocal(sendAt, zone)).toBe(at);
  const listed = (await fx.api<PendingSends>(fx.alice, 'GET', '/api/scheduled')).body.sends.find((item) => item.outboxId === scheduled.body.outboxId);
  expect(listed).toMatchObject({ scheduled: true, timeZone: zone, sendAt, subject: 'Scheduled on time', to: [BOB.email] });

  await advance(sendAt - now() - 60_000);
  expect(handoffs(scheduled.body.messageIdHeader)).toBe(0);
  await advance(61_000);
  const leftAt = now();
  await eventually(async () => (await copiesAtBob(scheduled.body.messageIdHeader)) === 1, 15_000, 'the scheduled message at bob');
  // Filed in Sent by a job of its own after the handoff (the account's next send need not wait for it).
  const status = await eventually(async () => {
    const reply = await api('GET', `/api/outbox/${scheduled.body.outboxId}`);
    return reply.body.state === 'sent' ? reply : undefined;
  }, 10_000, 'the scheduled message filed in Sent');
  expect(status.body).toMatchObject({ state: 'sent', sentLate: false });
  onTimeMessageId = scheduled.body.messageIdHeader;
  const [uid] = await uidsByMessageId(bobImap, 'INBOX', scheduled.body.messageIdHeader);
  const received = await fetchUid(bobImap, uid!, { envelope: true });
  // The Date is when it left (the moved clock), not when Send was pressed two hours earlier.
  expect(Math.abs(new Date(received.envelope!.date!).getTime() - leftAt)).toBeLessThan(5_000);
  expect((await fx.api<PendingSends>(fx.alice, 'GET', '/api/scheduled')).body.sends.some((item) => item.outboxId === scheduled.body.outboxId)).toBe(false);
  expect(handoffs(scheduled.body.messageIdHeader)).toBe(1);
});

test('overdue after the gateway was down: it goes at once after the restart, marked sent late, exactly once', async () => {
  const zone = 'America/New_York';
  const at = utcToLocal(now() + 3600_000, zone);
  const scheduled = await api('POST', '/api/send', { idempotencyKey: token(), compose: compose('Scheduled across a restart'), schedule: { at, timeZone: zone } });
  // Down over its time: the clock runs on while no gateway looks.
  await fx.restart({ smtp, now, jobs: { idleCheckMs: 60_000 } });
  offsetMs += 3 * 3600_000;
  fx.ctx.jobs.worker.kick();
  await eventually(async () => (await copiesAtBob(scheduled.body.messageIdHeader)) === 1, 15_000, 'the overdue message at bob');
  await eventually(async () => (await api('GET', `/api/outbox/${scheduled.body.outboxId}`)).body.state === 'sent', 10_000, 'sent');
  expect((await api('GET', `/api/outbox/${scheduled.body.outboxId}`)).body.sentLate).toBe(true);
  await advance(0);
  expect(handoffs(scheduled.body.messageIdHeader)).toBe(1);
  // Its Sent copy says so ($SentLate: every device shows "Sent late"); one that left on time does not.
  expect(await sentKeywords(scheduled.body.messageIdHeader)).toContain(SENT_LATE_KEYWORD);
  expect(await sentKeywords(onTimeMessageId!)).not.toContain(SENT_LATE_KEYWORD);
  // The keyword reaches the thread's summary (the row's mark) through the delta.
  const sentCopy = await eventually(
    () => fx.ctx.store.get<{ threadId: number }>('SELECT thread_id AS "threadId" FROM messages WHERE account_id = ? AND message_id_header = ? AND flags LIKE ?', [fx.alice.accountId, scheduled.body.messageIdHeader, `%${SENT_LATE_KEYWORD}%`]),
    10_000,
    'the late copy in the mirror',
  );
  const summary = (await changesSince(fx, fx.alice, 0)).filter((change) => change.op === 'upsert' && change.object === 'thread' && change.data.id === String(sentCopy.threadId)).at(-1);
  expect(summary?.op === 'upsert' && summary.object === 'thread' ? summary.data.keywords : []).toContain(SENT_LATE_KEYWORD);
});

/** The keywords of alice's Sent copy of a message (waits for the copy). */
async function sentKeywords(messageIdHeader: string): Promise<string[]> {
  const client = await fx.imap(ALICE);
  try {
    const [uid] = await eventually(async () => ((await uidsByMessageId(client, 'Sent', messageIdHeader)).length > 0 ? uidsByMessageId(client, 'Sent', messageIdHeader) : undefined), 10_000, 'the Sent copy');
    return [...((await fetchUid(client, uid!, { flags: true })).flags ?? [])];
  } finally {
    await client.logout().catch(() => undefined);
  }
}

test('cancel puts a scheduled draft back in Drafts; delete removes it; times that cannot be used are refused', async () => {
  const saved = await fx.api<{ id: string; version: number; messageIdHeader: string }>(fx.alice, 'POST', '/api/drafts', { ...compose('Scheduled draft'), version: 0 });
  expect(saved.status).toBe(201);
  const aliceImap = await fx.imap(ALICE);
  try {
    const zone = 'Europe/Berlin';
    const at = utcToLocal(now() + 24 * 3600_000, zone);
    const scheduled = await api('POST', '/api/send', { idempotencyKey: token(), draftId: saved.body.id, schedule: { at, timeZone: zone } });
    expect(scheduled.status).toBe(202);
    // Out of Drafts while it waits.
    await eventually(async () => (await uidsByMessageId(aliceImap, 'Drafts', saved.body.messageIdHeader)).length === 0, 10_000, 'the draft out of Drafts');
    const cancelled = await api('POST', `/api/scheduled/${scheduled.body.outboxId}/cancel`);
    expect(cancelled.body).toMatchObject({ outboxId: scheduled.body.outboxId, draftId: saved.body.id });
    expect((await uidsByMessageId(aliceImap, 'Drafts', saved.body.messageIdHeader)).length).toBe(1);
    expect((await fx.api<{ state: string }>(fx.alice, 'GET', `/api/drafts/${saved.body.id}`)).body.state).toBe('open');

    const again = await api('POST', '/api/send', { idempotencyKey: token(), draftId: saved.body.id, schedule: { at, timeZone: zone } });
    expect((await api('DELETE', `/api/scheduled/${again.body.outboxId}`)).status).toBe(200);
    expect((await fx.api<{ error: string }>(fx.alice, 'GET', `/api/drafts/${saved.body.id}`)).body.error).toBe('DraftDoesNotExist');
    expect((await uidsByMessageId(aliceImap, 'Drafts', saved.body.messageIdHeader)).length).toBe(0);
    await advance(25 * 3600_000);
    expect(handoffs(scheduled.body.messageIdHeader) + handoffs(again.body.messageIdHeader)).toBe(0);
  } finally {
    await aliceImap.logout().catch(() => undefined);
  }

  const refused = async (schedule: unknown) => (await api('POST', '/api/send', { idempotencyKey: token(), compose: compose('Refused'), schedule })).body.error;
  expect(await refused({ at: utcToLocal(now() - 3600_000, 'UTC'), timeZone: 'UTC' })).toBe('ScheduleTimeInPast');
  expect(await refused({ at: utcToLocal(now() + 400 * 24 * 3600_000, 'UTC'), timeZone: 'UTC' })).toBe('ScheduleTimeTooFar');
  // 2:30 on the last Sunday of March does not exist in Berlin (the clocks go from 2:00 to 3:00).
  const year = new Date(now()).getUTCFullYear() + (new Date(now()).getUTCMonth() >= 2 ? 1 : 0);
  const lastSunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay();
  expect(await refused({ at: `${year}-03-${lastSunday}T02:30`, timeZone: 'Europe/Berlin' })).toBe('ScheduleTimeNonexistent');
  expect(await refused({ at: '2030-01-01T08:00', timeZone: 'Mars/Olympus' })).toBe('InvalidParameter');
});

test('a scheduled send the server refuses for good stays listed as failed, and its draft is back in Drafts', async () => {
  const saved = await fx.api<{ id: string; messageIdHeader: string }>(fx.alice, 'POST', '/api/drafts', { ...compose('Refused for good'), version: 0 });
  const zone = 'UTC';
  const scheduled = await api('POST', '/api/send', { idempotencyKey: token(), draftId: saved.body.id, schedule: { at: utcToLocal(now() + 2 * 3600_000, zone), timeZone: zone } });
  expect(scheduled.status).toBe(202);
  await advance(2 * 3600_000 + 60_000);
  await eventually(async () => (await api('GET', `/api/outbox/${scheduled.body.outboxId}`)).body.state === 'failed', 15_000, 'failed');
  // Every device hears of it (the Scheduled list, a notification): it stays in the waiting list, failed.
  const listed = (await fx.api<PendingSends>(fx.alice, 'GET', '/api/scheduled')).body.sends.find((item) => item.outboxId === scheduled.body.outboxId);
  expect(listed).toMatchObject({ state: 'failed', scheduled: true, subject: 'Refused for good' });
  const aliceImap = await fx.imap(ALICE);
  try {
    await eventually(async () => (await uidsByMessageId(aliceImap, 'Drafts', saved.body.messageIdHeader)).length === 1, 10_000, 'the draft back in Drafts');
  } finally {
    await aliceImap.logout().catch(() => undefined);
  }
});
