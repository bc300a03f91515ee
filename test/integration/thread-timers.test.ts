// Snooze, reminders and follow-ups on the gateway (issue 15 points 3–4), against the harness's
// real Dovecot and Postfix: the gateway's clock is one the test moves (no real waiting for a
// time), then the job worker runs what is due. Where mail is (INBOX, Snoozed) is read over a
// separate IMAP connection, as another mail program would see it; the marks from the delta.
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SendResult } from '../../shared/api/compose';
import type { ThreadSummary } from '../../shared/api/mail';
import type { TimerResult, TimersDoc } from '../../shared/api/timers';
import { utcToLocal } from '../../shared/send-time';
import { eventually } from './support/gateway-fixture';
import { ALICE, BOB, changesSince, startWritesFixture, uidsByMessageId, type Session, type WritesFixture } from './support/mail-writes-fixture';

type Reply = TimerResult & TimersDoc & { error?: string };

/** The gateway's clock: real time moved on by the test. */
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
let fx: WritesFixture;
let aliceImap: ImapFlow;

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'thread-timers', count: 2, overrides: { now } });
  aliceImap = await fx.imap(ALICE);
});
afterAll(async () => {
  await aliceImap?.logout().catch(() => undefined);
  await fx?.close();
});

const token = () => `t${Math.random().toString(36).slice(2, 12)}`;
const api = (method: string, url: string, body?: unknown) => fx.api<Reply>(fx.alice, method, url, body);
/** A time `ms` from the gateway's now, as the picker gives it. */
const inZone = (ms: number, zone = 'Europe/Berlin') => ({ at: utcToLocal(now() + ms, zone), timeZone: zone });

/** Moves the gateway's clock, wakes the job worker and waits until no timer is due or running (its own loop may have claimed them). */
async function advance(ms: number): Promise<void> {
  offsetMs += ms;
  fx.ctx.jobs.worker.kick();
  await eventually(
    async () => {
      const row = await fx.ctx.store.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'thread.timer' AND ((state = 'queued' AND run_at <= ?) OR state = 'running')",
        [now()],
      );
      return Number(row?.n) === 0;
    },
    15_000,
    'the due timers fired',
  );
}

/** A message of the account in the gateway's mirror, by its Message-ID (waits for the mirror to see it). */
async function mirrored(session: Session, messageIdHeader: string): Promise<{ id: number; threadId: number }> {
  return eventually(
    async () => {
      const row = await fx.ctx.store.get<{ id: number; threadId: number }>('SELECT id, thread_id AS "threadId" FROM messages WHERE account_id = ? AND message_id_header = ?', [session.accountId, messageIdHeader]);
      return row ? { id: Number(row.id), threadId: Number(row.threadId) } : undefined;
    },
    15_000,
    `${messageIdHeader} in the mirror`,
  );
}

/** Sends from one account to the other; the message as the receiver's mirror has it. */
async function mail(from: Session, to: Session, subject: string, inReplyTo?: number): Promise<{ sent: SendResult; received: { id: number; threadId: number } }> {
  const sent = await fx.api<SendResult>(from, 'POST', '/api/send', {
    idempotencyKey: token(),
    compose: { to: [to === fx.alice ? ALICE.email : BOB.email], subject, text: `Body of ${subject}`, ...(inReplyTo ? { inReplyTo: String(inReplyTo) } : {}) },
  });
  expect(sent.status).toBeLessThan(300);
  return { sent: sent.body, received: await mirrored(to, sent.body.messageIdHeader) };
}

/** The thread's newest summary in alice's delta since `cursor`. */
async function summaryAfter(cursor: number, threadId: number): Promise<ThreadSummary | undefined> {
  const changes = await changesSince(fx, fx.alice, cursor);
  const last = changes.filter((change) => change.op === 'upsert' && change.object === 'thread' && change.data.id === String(threadId)).at(-1);
  return last?.op === 'upsert' && last.object === 'thread' ? last.data : undefined;
}

test('snooze moves the thread out of the Inbox into Snoozed until its time, then it is back on top, marked; unsnooze brings it back by hand', async () => {
  const { sent, received } = await mail(fx.bob, fx.alice, 'Snooze me');
  const cursor = (await fx.delta(fx.alice, 0)).cursor;
  const snoozed = await api('POST', '/api/snoozes', { threadId: String(received.threadId), schedule: inZone(3 * 3600_000) });
  expect(snoozed.status).toBe(200);
  expect(snoozed.body.timer).toMatchObject({ kind: 'snooze', state: 'waiting', threadId: String(received.threadId), subject: 'Snooze me' });
  // On the server: out of INBOX, in Snoozed (any mail program sees it there).
  expect(await uidsByMessageId(aliceImap, 'INBOX', sent.messageIdHeader)).toEqual([]);
  expect(await uidsByMessageId(aliceImap, 'Snoozed', sent.messageIdHeader)).toHaveLength(1);
  // Every device hears of it through delta's `timers` document.
  const changes = await changesSince(fx, fx.alice, cursor);
  const doc = changes.filter((change) => change.op === 'upsert' && change.object === 'timers').at(-1);
  expect(doc?.op === 'upsert' && doc.object === 'timers' && doc.data.timers.some((timer) => timer.id === snoozed.body.timer!.id)).toBe(true);

  await advance(3 * 3600_000 - 60_000);
  expect(await uidsByMessageId(aliceImap, 'Snoozed', sent.messageIdHeader)).toHaveLength(1);
  const before = (await fx.delta(fx.alice, 0)).cursor;
  await advance(61_000);
  const firedAt = now();
  expect(await uidsByMessageId(aliceImap, 'INBOX', sent.messageIdHeader)).toHaveLength(1);
  expect(await uidsByMessageId(aliceImap, 'Snoozed', sent.messageIdHeader)).toEqual([]);
  const back = await summaryAfter(before, received.threadId);
  expect(back?.raised).toMatchObject({ kind: 'snooze', timerId: snoozed.body.timer!.id });
  // On top: it sorts at the moment it came back, not at its message's date.
  expect(Math.abs(back!.lastMessageAt - firedAt)).toBeLessThan(5_000);
  // Dismissed: the mark and the lift go.
  const dismissedAt = (await fx.delta(fx.alice, 0)).cursor;
  expect((await api('DELETE', `/api/snoozes/${snoozed.body.timer!.id}`)).status).toBe(200);
  const plain = await summaryAfter(dismissedAt, received.threadId);
  expect(plain?.raised).toBeUndefined();
  expect(plain!.lastMessageAt).toBeLessThan(firedAt - 60_000);

  // Unsnooze by hand: back in INBOX at once; its job then does nothing.
  const again = await api('POST', '/api/snoozes', { threadId: String(received.threadId), schedule: inZone(3600_000) });
  expect(await uidsByMessageId(aliceImap, 'INBOX', sent.messageIdHeader)).toEqual([]);
  expect((await api('DELETE', `/api/snoozes/${again.body.timer!.id}`)).status).toBe(200);
  expect(await uidsByMessageId(aliceImap, 'INBOX', sent.messageIdHeader)).toHaveLength(1);
  expect((await api('GET', '/api/reminders')).body.timers.some((timer) => timer.id === again.body.timer!.id)).toBe(false);
  await advance(2 * 3600_000);
  expect(await uidsByMessageId(aliceImap, 'INBOX', sent.messageIdHeader)).toHaveLength(1);
});

test('a reminder raises the thread at its time; a new time replaces the old one; bad times are refused', async () => {
  const { received } = await mail(fx.bob, fx.alice, 'Remind me of this');
  const threadId = String(received.threadId);
  const first = await api('POST', '/api/reminders/upsert', { threadId, schedule: inZone(3600_000) });
  expect(first.body.timer).toMatchObject({ kind: 'remind', state: 'waiting' });
  // Upsert: the same reminder at a later time (its first job no longer fires it).
  const moved = await api('POST', '/api/reminders/upsert', { threadId, schedule: inZone(5 * 3600_000) });
  expect(moved.body.timer!.id).toBe(first.body.timer!.id);
  const before = (await fx.delta(fx.alice, 0)).cursor;
  await advance(2 * 3600_000);
  expect((await api('GET', '/api/reminders')).body.timers.find((timer) => timer.id === first.body.timer!.id)?.state).toBe('waiting');
  expect((await summaryAfter(before, received.threadId))?.raised).toBeUndefined();
  await advance(3 * 3600_000);
  expect((await api('GET', '/api/reminders')).body.timers.find((timer) => timer.id === first.body.timer!.id)?.state).toBe('raised');
  expect((await summaryAfter(before, received.threadId))?.raised).toMatchObject({ kind: 'remind' });
  expect((await api('DELETE', `/api/reminders/${first.body.timer!.id}`)).status).toBe(200);
  expect((await api('DELETE', `/api/reminders/999999`)).body.error).toBe('ReminderNotFound');

  const refused = async (schedule: unknown) => (await api('POST', '/api/reminders/upsert', { threadId, schedule })).body.error;
  expect(await refused(inZone(-3600_000, 'UTC'))).toBe('ScheduleTimeInPast');
  expect(await refused(inZone(400 * 24 * 3600_000, 'UTC'))).toBe('ScheduleTimeTooFar');
  const year = new Date(now()).getUTCFullYear() + 1;
  const lastSunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay();
  expect(await refused({ at: `${year}-03-${lastSunday}T02:30`, timeZone: 'Europe/Berlin' })).toBe('ScheduleTimeNonexistent');
  expect((await api('POST', '/api/reminders/upsert', { threadId: '999999', schedule: inZone(3600_000) })).body.error).toBe('ThreadNotFound');
});

test('a follow-up fires only without a reply from someone else; a reply cancels it; trashing the thread cancels it', async () => {
  // alice writes to bob; her Sent copy is what the follow-up is set on.
  const asked = await mail(fx.alice, fx.bob, 'Any news?');
  const sentCopy = await mirrored(fx.alice, asked.sent.messageIdHeader);
  const quiet = await mail(fx.alice, fx.bob, 'Still there?');
  const quietCopy = await mirrored(fx.alice, quiet.sent.messageIdHeader);
  const trashed = await mail(fx.alice, fx.bob, 'Never mind');
  const trashedCopy = await mirrored(fx.alice, trashed.sent.messageIdHeader);

  const follow = async (messageId: number) => (await api('POST', '/api/follow-ups', { messageId: String(messageId), schedule: inZone(24 * 3600_000) })).body.timer!;
  const answeredTimer = await follow(sentCopy.id);
  const quietTimer = await follow(quietCopy.id);
  const trashedTimer = await follow(trashedCopy.id);
  expect((await api('GET', '/api/follow-ups')).body.timers.map((timer) => timer.id)).toEqual(expect.arrayContaining([answeredTimer.id, quietTimer.id, trashedTimer.id]));
  // Only on a message the account sent.
  const { received: fromBob } = await mail(fx.bob, fx.alice, 'Not mine');
  expect((await api('POST', '/api/follow-ups', { messageId: String(fromBob.id), schedule: inZone(3600_000) })).body.error).toBe('InvalidOperation');
  // Update: another time (a day and an hour).
  expect((await api('PUT', `/api/follow-ups/${quietTimer.id}`, { schedule: inZone(25 * 3600_000) })).body.timer!.dueAt).toBeGreaterThan(quietTimer.dueAt);

  // bob answers the first; alice trashes the third.
  const reply = await mail(fx.bob, fx.alice, 'Re: Any news?', asked.received.id);
  expect(reply.received.threadId).toBe(sentCopy.threadId);
  const trash = await fx.api(fx.alice, 'POST', '/api/threads/bulk', { ids: [String(trashedCopy.threadId)], action: 'trash' });
  expect(trash.status).toBe(200);

  const before = (await fx.delta(fx.alice, 0)).cursor;
  await advance(26 * 3600_000);
  const timers = (await api('GET', '/api/follow-ups')).body.timers;
  expect(timers.find((timer) => timer.id === answeredTimer.id)).toBeUndefined();
  expect(timers.find((timer) => timer.id === trashedTimer.id)).toBeUndefined();
  expect(timers.find((timer) => timer.id === quietTimer.id)?.state).toBe('raised');
  expect((await summaryAfter(before, quietCopy.threadId))?.raised).toMatchObject({ kind: 'followUp', timerId: quietTimer.id });
  expect((await summaryAfter(before, sentCopy.threadId))?.raised).toBeUndefined();
  expect((await api('DELETE', `/api/follow-ups/${quietTimer.id}`)).status).toBe(200);
});
