/**
 * The outbox in lanes: a row the gateway fails with a server error (retried with backoff for
 * minutes) holds up only its own lane — its draft's later rows, or the actions after it —
 * never a Send clicked for another draft; the network being gone still stops everything.
 * The sender runs alone here over a real (fake-indexeddb) mail database, its rows recorded
 * by the real command service, in front of a scripted stand-in for our gateway; time is the
 * manual clock's.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, test } from 'vitest';
import type { BulkAction } from '../../../../shared/api/actions';
import type { DraftSave, SendRequest, SendResult } from '../../../../shared/api/compose';
import { TernError } from '../../../../shared/errors';
import type { CommandStatus, DraftSaveReceipt } from '../../../../shared/worker-mail-api';
import { errorFromReply } from '../../../../src-worker/api/gateway-client';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { withRead } from '../../../../src-worker/db/store';
import { createChangeFeed } from '../../../../src-worker/mail-store/change-feed';
import { OUTBOX_TABLE, type OutboxRow } from '../../../../src-worker/mail-store/outbox-rows';
import { createCommandStatusFeed } from '../../../../src-worker/outbox/command-status-feed';
import { EngineMailCommands } from '../../../../src-worker/outbox/mail-command-service';
import { createOutboxSender, MAX_SERVER_ATTEMPTS, PARKED_SAVE_RETRY_MS, type OutboxSenderDeps } from '../../../../src-worker/outbox/outbox-sender';
import { onlineStub } from '../fakes';
import { manualClock } from '../mail-test-kit';
import { draftTo } from './started-engine';

const senders: { stop(): void }[] = [];
afterEach(() => senders.splice(0).forEach((sender) => sender.stop()));

/** What the gateway answers a bare 503 with, as the HTTP client throws it. */
const serverError = () => errorFromReply(503, null, 'request-1');
/** What the HTTP client throws when no answer came at all. */
const networkError = () => new TernError('OperationFailed', { detail: { network: true } });

/**
 * Our gateway's draft, send and bulk routes, scripted: every call is logged as a label
 * ("save A", "send A", "discard A", "star 101") with the clock's time, and a label in
 * `failing` throws that error for as long as it is there.
 */
function scriptedGateway(now: () => number) {
  const calls: { label: string; at: number }[] = [];
  const failing = new Map<string, () => TernError>();
  const subjects = new Map<string, string>(); // the gateway's draft id → its subject
  const call = (label: string) => {
    calls.push({ label, at: now() });
    const error = failing.get(label);
    if (error) throw error();
  };
  const saved = (id: string, body: DraftSave) => {
    call(`save ${body.subject}`);
    subjects.set(id, body.subject);
    return { id, version: 1, messageId: null, messageIdHeader: `<${id}@kite.test>`, latestTxnId: 0 };
  };
  const gateway: OutboxSenderDeps['gateway'] = {
    createDraft: async (body: DraftSave) => saved(String(100 + subjects.size), body),
    updateDraft: async (id: string, body: DraftSave) => saved(id, body),
    getDraft: async () => Promise.reject(new Error('not scripted')),
    deleteDraft: async (id: string) => (call(`discard ${subjects.get(id)}`), { latestTxnId: 0 }),
    send: async (body: SendRequest): Promise<SendResult> => {
      call(`send ${subjects.get(body.draftId ?? '')}`);
      return { outboxId: `out-${body.draftId}`, state: 'sent', messageIdHeader: '<m@kite.test>', rejected: [], latestTxnId: 0, lastError: null, sentCopy: 'filed' };
    },
    bulk: async ({ action }: { action: BulkAction }) => (call(`${action.action} ${action.ids.join(',')}`), { messageIds: [], latestTxnId: 0 }),
    resendOutbox: async () => Promise.reject(new Error('not scripted')),
    outboxStatus: async () => Promise.reject(new Error('not scripted')),
  };
  return { gateway, calls, failing, labels: () => calls.map((entry) => entry.label), timesOf: (label: string) => calls.filter((entry) => entry.label === label).map((entry) => entry.at) };
}

/** Account '7''s outbox sender and the command service that records its rows (and kicks it). */
async function outbox() {
  const store = await idbStoreFactory(new IDBFactory()).open('7', MAIL_SCHEMA);
  const clock = manualClock();
  const { gateway, ...script } = scriptedGateway(() => clock.now());
  const network = onlineStub();
  const statuses = createCommandStatusFeed();
  const changes = createChangeFeed();
  const published: CommandStatus[] = [];
  statuses.subscribe((status) => published.push(status));
  // No jitter (random 1): each retry delay is exactly the doubled one.
  const sender = createOutboxSender({ accountId: '7', store: async () => store, gateway, requestPull: () => {}, online: network.status, statuses, changes, clock, random: () => 1 });
  senders.push(sender);
  const commands = new EngineMailCommands({
    open: async () => store,
    gateway: async () => Promise.reject(new Error('not used')),
    kick: () => sender.kick(),
    accountIds: async () => ['7'],
    statuses,
    changes,
    clock,
  });
  /** A save of a new draft, or with `after`, the next save of the draft that receipt names. */
  const save = async (subject: string, after?: DraftSaveReceipt) =>
    commands.saveDraft({ draft: draftTo(`<p>${subject}</p>`, { subject, ...(after ? { draftId: after.draftId, baseRevision: after.revision! } : {}) }) });
  const send = async (draftId: string) => commands.send({ accountId: '7', draftId, delayMs: 0 });
  const star = async (threadId: string) => commands.run({ command: { kind: 'star', accountId: '7', threadIds: [threadId], starred: true } });
  /** Runs the timers due within `ms` and lets every pass they start end. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await sender.idle();
  };
  const rows = async () => withRead(store, [OUTBOX_TABLE], async (tx) => (await tx.getAll(OUTBOX_TABLE)) as OutboxRow[]);
  const last = (commandId: string | undefined) => published.filter((status) => status.commandId === commandId).at(-1);
  return { ...script, sender, clock, network, published, save, send, star, advance, rows, last };
}

/** The doubling delays of SYNC_BACKOFF after tries 1 … 7: 1 s, 2 s, 4 s … up to its 60 s cap. */
const DOUBLING = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000];
const gaps = (times: readonly number[]) => times.slice(1).map((at, i) => at - times[i]!);

describe('outbox lanes: a row failed by the server holds up only its own lane', () => {
  test("draft A's save answered 503 again and again does not delay draft B's send", async () => {
    const box = await outbox();
    box.failing.set('save A', serverError);
    const a = await box.save('A');
    const b = await box.save('B');
    const sent = await box.send(b.draftId);
    await box.sender.idle();

    // The clock has not moved: B's save and send went on the first pass, past A's failing save.
    expect(box.labels()).toEqual(['save A', 'save B', 'send B']);
    expect(box.last(sent.commandId)).toMatchObject({ status: 'done', kind: 'send', draftId: b.draftId });
    expect(box.last(a.commandId)).toMatchObject({ status: 'pending', error: { name: 'InternalServerError' } });
    // A waits out its own backoff: the passes the later commands started did not try it again.
    expect(box.timesOf('save A')).toHaveLength(1);
    expect(box.clock.pending()).toEqual([1_000]);
  });

  test("draft A's send never overtakes A's own failing save, through its backoff and its parking, and follows it once it is through", async () => {
    const box = await outbox();
    box.failing.set('save A', serverError);
    const a = await box.save('A');
    const sent = await box.send(a.draftId);
    await box.sender.idle();
    for (const delay of DOUBLING) await box.advance(delay);
    expect(box.timesOf('save A')).toHaveLength(MAX_SERVER_ATTEMPTS);
    // Parked now (kept on this device, tried every few minutes); its send still waits.
    expect(box.labels()).not.toContain('send A');
    expect(box.last(sent.commandId)).toMatchObject({ status: 'pending' });

    box.failing.delete('save A');
    await box.advance(PARKED_SAVE_RETRY_MS);
    expect(box.labels().slice(-2)).toEqual(['save A', 'send A']);
    expect(box.last(sent.commandId)).toMatchObject({ status: 'done' });
  });

  test('a send under the id the gateway gave the draft (a composer reopened from Drafts) waits for a save still owed under the local id', async () => {
    const box = await outbox();
    const first = await box.save('A');
    await box.sender.idle();
    box.failing.set('save A', serverError);
    await box.save('A', first); // the composer's next save, under its local id
    const sent = await box.send('100'); // the same draft reopened from Drafts, sent by the id the gateway gave it
    await box.sender.idle();
    expect(box.labels()).not.toContain('send A');

    box.failing.delete('save A');
    await box.advance(1_000);
    expect(box.labels().slice(-2)).toEqual(['save A', 'send A']);
    expect(box.last(sent.commandId)).toMatchObject({ status: 'done' });
  });

  test('an action after a failing action waits for it, and goes right after it once the gateway takes it', async () => {
    const box = await outbox();
    box.failing.set('star 101', serverError);
    await box.star('101');
    const later = await box.star('102');
    await box.sender.idle();
    expect(box.labels()).not.toContain('star 102');
    expect(box.last(later.commandId)).toMatchObject({ status: 'pending' });

    box.failing.delete('star 101');
    await box.advance(1_000);
    expect(box.labels().slice(-2)).toEqual(['star 101', 'star 102']);
    expect(box.last(later.commandId)).toMatchObject({ status: 'done' });
  });

  test('an action does not wait for a failing draft save', async () => {
    const box = await outbox();
    box.failing.set('save A', serverError);
    await box.save('A');
    const action = await box.star('101');
    await box.sender.idle();
    expect(box.labels()).toEqual(['save A', 'star 101']);
    expect(box.last(action.commandId)).toMatchObject({ status: 'done' });
  });

  test('a network error still stops the whole pass: no row after it is tried until the network is back', async () => {
    const box = await outbox();
    box.failing.set('save A', networkError);
    box.network.set(false);
    const a = await box.save('A');
    const action = await box.star('101');
    const b = await box.save('B');
    await box.sender.idle();
    await box.advance(60_000); // no timer: it waits for the network, not for time
    // Each pass the later commands started stopped at A again.
    const tries = box.labels().length;
    expect(box.labels()).toEqual(Array<string>(tries).fill('save A'));

    box.failing.delete('save A');
    box.network.set(true);
    await box.sender.idle();
    expect(box.labels().slice(tries)).toEqual(['save A', 'star 101', 'save B']);
    for (const command of [a, action, b]) expect(box.last(command.commandId)).toMatchObject({ status: 'done' });
  });

  test("a failing row's retry delays double with its own tries while other lanes succeed; after the last try a save is parked and an action given up", async () => {
    const box = await outbox();
    box.failing.set('save A', serverError);
    box.failing.set('star 101', serverError);
    const a = await box.save('A');
    const action = await box.star('101');
    await box.sender.idle();
    for (const [i, delay] of DOUBLING.entries()) {
      // Another lane succeeds between every two tries (under the old shared counter, that reset the delay to 1 s).
      const other = await box.save(`Other ${i}`);
      await box.sender.idle();
      expect(box.last(other.commandId)).toMatchObject({ status: 'done' });
      expect(box.clock.pending()).toEqual([delay]);
      await box.advance(delay);
    }
    expect(gaps(box.timesOf('save A'))).toEqual(DOUBLING);
    expect(gaps(box.timesOf('star 101'))).toEqual(DOUBLING);

    // The save is kept on this device, parked (never failed); the action is given up and reported.
    const [parked] = await box.rows();
    expect(parked).toMatchObject({ id: a.commandId, status: 'pending', attempts: 0, retry_at: box.clock.now() + PARKED_SAVE_RETRY_MS });
    expect(box.published.some((status) => status.commandId === a.commandId && status.status === 'failed')).toBe(false);
    expect(box.last(action.commandId)).toMatchObject({ status: 'failed', error: { name: 'InternalServerError' } });
    expect(await box.rows()).toHaveLength(1);
    expect(box.clock.pending()).toEqual([PARKED_SAVE_RETRY_MS]);
  });
});
