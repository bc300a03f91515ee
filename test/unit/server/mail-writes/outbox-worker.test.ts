import { tmpdir } from 'node:os';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { JobQueue } from '../../../../src-server/jobs/job-queue';
import { JobWorker } from '../../../../src-server/jobs/job-worker';
import { OUTBOX_FILE, OUTBOX_SEND, OutboxJobs } from '../../../../src-server/outbox/outbox-jobs';
import { OutboxStore, type OutboxRow } from '../../../../src-server/outbox/outbox-store';
import { OutboxWorker, type OutboxOptions, type SentFiling } from '../../../../src-server/outbox/outbox-worker';
import type { SmtpConnector, SmtpOutcome, SmtpSendParams } from '../../../../src-server/smtp/smtp-connector';
import { openDatabase, type Db } from '../../../../src-server/store/database';
import { SqliteStore } from '../../../../src-server/store/sqlite-store';

/**
 * An SMTP connector of our own: accepts, refuses or never answers, as each test says; `drop`
 * writes the final "." (after awaiting onCommit) and then loses the connection before any reply, and an
 * Error with `afterDot` is the server's refusal of the finished message.
 */
class FakeSmtp implements SmtpConnector {
  readonly calls: SmtpSendParams[] = [];
  next: (call: number) => 'accept' | 'hang' | 'drop' | Error = () => 'accept';
  active = 0;
  maxActive = 0;

  async send(params: SmtpSendParams): Promise<SmtpOutcome> {
    this.calls.push(params);
    const behaviour = this.next(this.calls.length);
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (behaviour === 'hang') await new Promise(() => undefined);
      if (behaviour instanceof Error && !(behaviour as { afterDot?: boolean }).afterDot) throw behaviour;
      await params.onCommit?.(); // as the real connector: the "." waits for the commit point
      if (behaviour === 'drop') throw Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' });
      if (behaviour instanceof Error) throw behaviour;
      return { response: '250 2.0.0 Ok: queued as ABC', accepted: [...params.envelope.to], rejected: [] };
    } finally {
      this.active--;
    }
  }
}

class FakeFiling implements SentFiling {
  readonly filed: number[] = [];
  readonly finished: { id: number; withCopy: boolean }[] = [];
  inSent = new Set<string>();
  failuresLeft = 0;
  async isInSent(row: OutboxRow) {
    return this.inSent.has(row.messageIdHeader);
  }
  async fileCopy(row: OutboxRow) {
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      throw new Error('APPEND failed: NO [OVERQUOTA]');
    }
    this.filed.push(row.id);
    this.inSent.add(row.messageIdHeader);
  }
  /** The rows of each batch filed along with a filing job's own row. */
  readonly batches: number[][] = [];
  /** The rows whose finish waited for the mirror's sync. */
  readonly settled: number[] = [];
  async fileCopies(rows: readonly OutboxRow[]) {
    this.batches.push(rows.map((row) => row.id));
    for (const row of rows) await this.fileCopy(row);
  }
  async finish(row: OutboxRow, withCopy: boolean, settle = true) {
    this.finished.push({ id: row.id, withCopy });
    if (settle) this.settled.push(row.id);
  }
}

const smtpError = (responseCode: number | null, response: string, code = 'EENVELOPE') => Object.assign(new Error(response), { responseCode: responseCode ?? undefined, response, code });

let db: Db;
let sql: SqliteStore;
let clock: number;
let smtp: FakeSmtp;
let filing: FakeFiling;
let store: OutboxStore;
let queue: JobQueue;
let jobs: OutboxJobs;
let alice: number;
let bob: number;
const failedRows: number[] = [];

function addAccount(email: string): number {
  return Number(
    db
      .prepare(
        `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
         VALUES (?, '', 'localhost', 143, 'none', 'localhost', 25, 'none', x'', 0)`,
      )
      .run(email).lastInsertRowid,
  );
}

/** The outbox's handler under a job worker of its own (not started: each test runs its passes). */
function worker(options: Partial<OutboxOptions> = {}) {
  const outbox = new OutboxWorker({
    store,
    smtp,
    filing,
    fileLater: (row) => jobs.enqueueFiling(row),
    accounts: { get: async (id) => ({ id, email: `${id}@tern.test`, name: '', imap: { host: 'h', port: 1, security: 'none' }, smtp: { host: 'h', port: 2, security: 'none' }, latestTxnId: 0 }), password: async () => 'pw' },
    onFailed: (row) => void failedRows.push(row.id),
    now: () => clock,
    options: { retry: { firstDelayMs: 5_000, factor: 6 }, maxAttempts: 3, ...options },
  });
  const loop = new JobWorker({ queue, name: 'this-node', options: { stopWaitMs: 50 } });
  loop.register(OUTBOX_SEND, outbox.handle, outbox.retryPolicy);
  loop.register(OUTBOX_FILE, outbox.handleFiling, outbox.retryPolicy);
  // A pass, and the passes its jobs made due (an accepted row's filing is due at once).
  const runDue = async () => {
    let ran = 0;
    for (let n = await loop.runDue(); n > 0; n = await loop.runDue()) ran += n;
    return ran;
  };
  return Object.assign(outbox, { runDue, pass: () => loop.runDue(), stop: () => loop.stop() });
}

/**
 * A gateway claimed the rows' jobs and started their attempts; `then` is how far each got
 * (its commit point written, …) before the gateway died. The claims lapse after it.
 */
async function diedSending(rows: OutboxRow[], then: (row: OutboxRow) => Promise<unknown> = async () => undefined) {
  expect(await queue.claim({ worker: 'dead-node', kinds: [OUTBOX_SEND], limit: rows.length, lockMs: 1_000 })).toHaveLength(rows.length);
  for (const row of rows) {
    expect(await store.claim(row.id)).toBe(true);
    await then(row);
  }
  clock += 1_000;
}

/** The row and its job, as the send service stores them. */
const enqueue = (key: string, accountId = alice) =>
  sql.transaction(async () => {
    const stored = await enqueueRow(key, accountId);
    if (stored.created) await jobs.enqueue(stored.row);
    return stored;
  });

const enqueueRow = (key: string, accountId: number) =>
  store.enqueue({
    accountId,
    idempotencyKey: key,
    requestHash: 'h',
    draftId: null,
    parentId: null,
    messageIdHeader: `<${key}@tern.test>`,
    envelope: { from: 'alice@tern.test', to: ['bob@kite.test'] },
    raw: Buffer.from(`Message-ID: <${key}@tern.test>\r\n\r\nhello`),
    sentCopy: null,
    uploadIds: [],
  });

beforeEach(() => {
  db = openDatabase(tmpdir(), ':memory:');
  clock = 1_000_000;
  smtp = new FakeSmtp();
  filing = new FakeFiling();
  sql = new SqliteStore(db, ':memory:');
  store = new OutboxStore(sql, () => clock);
  queue = new JobQueue({ store: sql, now: () => clock });
  jobs = new OutboxJobs(queue, sql);
  alice = addAccount('alice@tern.test');
  bob = addAccount('bob@kite.test');
  failedRows.length = 0;
});

describe('outbox state machine', () => {
  test('queued → sending → accepted → sent: one SMTP call with the stored bytes, one Sent copy', async () => {
    const { row } = await enqueue('k-happy');
    const w = worker();
    const states: string[] = [];
    // The store reads at once (SQLite, no transaction open): the state as the event found it.
    w.on('changed', (id) => void store.get(id).then((row) => states.push(row!.state)));
    await w.runDue();
    expect(smtp.calls).toHaveLength(1);
    expect(smtp.calls[0]!.raw.toString()).toContain('<k-happy@tern.test>');
    expect(smtp.calls[0]!.envelope.to).toEqual(['bob@kite.test']);
    expect(await store.get(row.id)).toMatchObject({ state: 'sent', attempts: 1 });
    expect((await store.get(row.id))!.smtp?.response).toContain('250');
    expect(filing.filed).toEqual([row.id]);
    expect(states[0]).toBe('sending');
    await w.runDue();
    expect(smtp.calls).toHaveLength(1);
  });

  test('the same idempotency key is the same row, sent once', async () => {
    const first = await enqueue('k-same');
    const second = await enqueue('k-same');
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.row.id).toBe(first.row.id);
    await worker().runDue();
    expect(smtp.calls).toHaveLength(1);
    expect((await enqueue('k-same')).row.state).toBe('sent');
  });

  test('a 5xx refusal fails at once with the server’s reason; no retry', async () => {
    smtp.next = () => smtpError(550, '550 5.1.1 <nobody@kite.test>: Recipient address rejected: User unknown');
    const { row } = await enqueue('k-550');
    const w = worker();
    await w.runDue();
    clock += 3_600_000;
    await w.runDue();
    expect(smtp.calls).toHaveLength(1);
    const failed = (await store.get(row.id))!;
    expect(failed.state).toBe('failed');
    expect(failed.failure).toMatchObject({ permanent: true, responseCode: 550 });
    expect(failed.failure!.reason).toContain('User unknown');
    expect(failedRows).toEqual([row.id]);
    expect(filing.filed).toEqual([]);
  });

  test('a transient failure is retried after its delay, then succeeds', async () => {
    smtp.next = (call) => (call === 1 ? Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET' }) : 'accept');
    const { row } = await enqueue('k-retry');
    const w = worker();
    await w.runDue();
    expect(await store.get(row.id)).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: clock + 5_000, lastError: 'connect ECONNREFUSED 127.0.0.1:25' });
    await w.runDue();
    expect(smtp.calls).toHaveLength(1); // not due yet
    clock += 5_000;
    await w.runDue();
    expect(smtp.calls).toHaveLength(2);
    expect((await store.get(row.id))!.state).toBe('sent');
  });

  test('transient failures end in failed after maxAttempts', async () => {
    smtp.next = () => smtpError(421, '421 4.3.2 Service shutting down', 'EPROTOCOL');
    const { row } = await enqueue('k-421');
    const w = worker();
    for (let i = 0; i < 5; i++) {
      await w.runDue();
      clock += 60_000;
    }
    expect(smtp.calls).toHaveLength(3);
    expect(await store.get(row.id)).toMatchObject({ state: 'failed', attempts: 3 });
  });

  test('crash before SMTP: a row left `sending` and not in Sent is sent once by the next gateway', async () => {
    const { row } = await enqueue('k-crash');
    await diedSending([row]); // the first gateway claimed it and died before SMTP answered
    const next = worker();
    await next.runDue(); // recovery requeues it
    await next.runDue();
    expect(smtp.calls).toHaveLength(1);
    expect(await store.get(row.id)).toMatchObject({ state: 'sent', attempts: 2 });
    await next.runDue();
    expect(smtp.calls).toHaveLength(1);
  });

  test('crash after SMTP, server filed it in Sent: found there, never sent again', async () => {
    const { row } = await enqueue('k-in-sent');
    await diedSending([row], () => store.markCommitting(row.id));
    filing.inSent.add(row.messageIdHeader);
    const next = worker();
    await next.runDue();
    await next.runDue();
    expect(smtp.calls).toHaveLength(0);
    expect((await store.get(row.id))!.state).toBe('sent');
  });

  test('crash after the accepted marker: only the filing is done', async () => {
    const { row } = await enqueue('k-marker');
    await diedSending([row], () => store.markAccepted(row.id, { response: '250 ok', accepted: ['bob@kite.test'], rejected: [] }));
    await worker().runDue();
    expect(smtp.calls).toHaveLength(0);
    expect(filing.filed).toEqual([row.id]);
    expect((await store.get(row.id))!.state).toBe('sent');
  });

  test('a failing Sent copy is retried without sending again', async () => {
    filing.failuresLeft = 2;
    const { row } = await enqueue('k-filing');
    const w = worker();
    await w.runDue();
    expect(await store.get(row.id)).toMatchObject({ state: 'accepted', filingAttempts: 1 });
    clock += 5_000;
    await w.runDue();
    clock += 30_000;
    await w.runDue();
    expect(smtp.calls).toHaveLength(1);
    expect(await store.get(row.id)).toMatchObject({ state: 'sent', sentCopyState: 'filed' });
  });

  test('a Sent copy that fails every retry is not marked filed: sent, sentCopyState failed, the reason kept, the draft copy kept', async () => {
    filing.failuresLeft = 99;
    const { row } = await enqueue('k-nofile');
    const w = worker({ maxFilingAttempts: 3, retry: { firstDelayMs: 1_000, factor: 1 } });
    for (let i = 0; i < 4; i++) {
      await w.runDue();
      clock += 1_000;
    }
    expect(smtp.calls).toHaveLength(1);
    const done = (await store.get(row.id))!;
    expect(done).toMatchObject({ state: 'sent', sentCopyState: 'failed', filingAttempts: 2 });
    expect(done.lastError).toContain('OVERQUOTA');
    expect(done.raw.length).toBeGreaterThan(0); // the message is kept: Sent lacks it
    expect(filing.finished).toEqual([{ id: row.id, withCopy: false }]);
  });

  test('crash after the final "." and before the reply, not in Sent: unknown, never sent again on its own', async () => {
    const { row } = await enqueue('k-after-dot');
    await diedSending([row], () => store.markCommitting(row.id)); // the first gateway wrote its dot and died waiting for the 250
    const next = worker();
    for (let i = 0; i < 3; i++) {
      await next.runDue();
      clock += 3_600_000;
    }
    expect(smtp.calls).toHaveLength(0);
    expect(await store.get(row.id)).toMatchObject({ state: 'unknown' });
    expect((await store.get(row.id))!.lastError).toMatch(/may have been sent/);
    expect(filing.filed).toEqual([]);
  });

  test('after a crash with IMAP down: a row before its "." is resent anyway; one after it waits for Sent to be looked at', async () => {
    filing.isInSent = async () => {
      throw new Error('IMAP connection refused');
    };
    const before = (await enqueue('k-before-dot')).row;
    const after = (await enqueue('k-after-dot-down', bob)).row;
    await diedSending([before, after], async (row) => row.id === after.id && store.markCommitting(after.id));
    const next = worker();
    await next.runDue();
    await next.runDue();
    expect(smtp.calls.map((call) => call.raw.toString().match(/<(k-[a-z-]+)@/)![1])).toEqual(['k-before-dot']);
    expect((await store.get(after.id))!.state).toBe('sending');
    filing.isInSent = async () => false;
    clock += 30_000; // the job's backoff after the failed look (its second claim: the dead node had the first)
    await next.runDue();
    expect((await store.get(after.id))!.state).toBe('unknown');
    expect(smtp.calls).toHaveLength(1);
  });

  test('a connection lost after the final "." is unknown, not retried; the person may send it again', async () => {
    smtp.next = (call) => (call === 1 ? 'drop' : 'accept');
    const { row } = await enqueue('k-drop');
    const w = worker();
    await w.runDue();
    clock += 3_600_000;
    await w.runDue();
    expect(smtp.calls).toHaveLength(1);
    expect(await store.get(row.id)).toMatchObject({ state: 'unknown', attempts: 1 });
    expect(await jobs.reopen(row, () => store.resend(row.id))).toBe(true);
    await w.runDue();
    expect(smtp.calls).toHaveLength(2);
    expect(await store.get(row.id)).toMatchObject({ state: 'sent', committedAt: clock });
    expect(await jobs.reopen(row, () => store.resend(row.id))).toBe(false); // only an unknown message
    expect(await queue.nextDueAt([OUTBOX_SEND])).toBeNull(); // and no job for it
  });

  test('the person confirms an unknown message arrived: filed in Sent, never sent again', async () => {
    smtp.next = () => 'drop';
    const { row } = await enqueue('k-confirm');
    const w = worker();
    await w.runDue();
    expect(await jobs.reopen(row, () => store.confirmSent(row.id))).toBe(true);
    await w.runDue();
    expect(smtp.calls).toHaveLength(1);
    expect(await store.get(row.id)).toMatchObject({ state: 'sent', sentCopyState: 'filed' });
    expect(filing.filed).toEqual([row.id]);
  });

  test('a refusal of the finished message (a reply after the ".") is retried as before: the server said no', async () => {
    smtp.next = (call) => (call === 1 ? Object.assign(smtpError(451, '451 4.3.0 Temporary lookup failure', 'EMESSAGE'), { afterDot: true }) : 'accept');
    const { row } = await enqueue('k-451-dot');
    const w = worker();
    await w.runDue();
    expect(await store.get(row.id)).toMatchObject({ state: 'queued', committedAt: null });
    clock += 5_000;
    await w.runDue();
    expect(smtp.calls).toHaveLength(2);
    expect((await store.get(row.id))!.state).toBe('sent');
  });

  test('a stop during a hung attempt leaves the row `sending` and hands its claim back for the next worker, which resolves it', async () => {
    smtp.next = (call) => (call === 1 ? 'hang' : 'accept');
    const { row } = await enqueue('k-hang');
    vi.useFakeTimers();
    try {
      const w = worker();
      void w.runDue();
      await vi.advanceTimersByTimeAsync(5); // the fake server's latency: the attempt is now hung
      expect(smtp.calls).toHaveLength(1);
      let stopped = false;
      const stopping = w.stop().then(() => (stopped = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(stopped).toBe(false); // it waits for the attempt under way…
      await vi.advanceTimersByTimeAsync(1);
      await stopping; // …for stopWaitMs, then abandons it
      expect((await store.get(row.id))!.state).toBe('sending');
    } finally {
      vi.useRealTimers();
    }
    const job = (await queue.get((await jobs.enqueue(row))!))!;
    expect(job).toMatchObject({ state: 'running', lockedUntil: clock }); // handed back: claimable now, not after lockMs
    await worker().runDue(); // died before its "." (no commit point): sent again, once
    expect(smtp.calls).toHaveLength(2);
    expect(await store.get(row.id)).toMatchObject({ state: 'sent', attempts: 2 });
  });

  test('a worker given up for dead that still runs is fenced: no commit point, no ".", while another attempt has the row', async () => {
    const hold = () => {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      return { promise, resolve };
    };
    const holds = [hold(), hold()];
    const commits: string[] = [];
    // Each attempt stalls before its "." until the test lets it go on.
    smtp.send = async (params) => {
      const call = smtp.calls.push(params);
      await holds[call - 1]!.promise;
      try {
        await params.onCommit?.();
      } catch (error) {
        commits.push(`${call} refused: ${(error as Error).message}`);
        throw error;
      }
      commits.push(`${call} committed`);
      return { response: '250 ok', accepted: [...params.envelope.to], rejected: [] };
    };
    const { row } = await enqueue('k-slow');
    const slow = worker().runDue();
    await vi.waitFor(() => expect(smtp.calls).toHaveLength(1));
    clock += 31_000; // its claim lapses (its node is stuck, not renewing): another worker takes over
    const next = worker().runDue();
    await vi.waitFor(() => expect(smtp.calls).toHaveLength(2));
    expect(await store.get(row.id)).toMatchObject({ state: 'sending', attempts: 2 });
    holds[0]!.resolve(); // the stuck one wakes up while the row is `sending` under attempt 2
    await slow;
    holds[1]!.resolve();
    await next;
    expect(commits).toEqual(['1 refused: The outbox row is no longer this attempt’s to send.', '2 committed']);
    expect(await store.get(row.id)).toMatchObject({ state: 'sent', attempts: 2 });
  });

  test('an account’s rows waiting for Sent are filed by one filing job in one batch, each once, with one wait for the sync', async () => {
    const rows: OutboxRow[] = [];
    for (const key of ['k-f1', 'k-f2', 'k-f3']) {
      const { row } = await enqueueRow(key, alice);
      expect(await store.claim(row.id)).toBe(true);
      expect(await store.markAccepted(row.id, { response: '250 ok', accepted: ['bob@kite.test'], rejected: [] })).toBe(true);
      rows.push(row);
    }
    const other = (await enqueueRow('k-f-bob', bob)).row;
    await store.claim(other.id);
    await store.markAccepted(other.id, { response: '250 ok', accepted: ['bob@kite.test'], rejected: [] });
    for (const row of [...rows, other]) await jobs.enqueueFiling(row);
    await worker().runDue();
    expect(smtp.calls).toHaveLength(0);
    expect([...filing.filed].sort()).toEqual([...rows, other].map((row) => row.id).sort());
    expect(filing.batches).toEqual([rows.slice(1).map((row) => row.id)]); // bob's row is not alice's batch
    expect(filing.settled.sort()).toEqual([rows[2]!.id, other.id].sort());
    for (const row of [...rows, other]) expect(await store.get(row.id)).toMatchObject({ state: 'sent', sentCopyState: 'filed' });
    expect(await queue.nextDueAt([OUTBOX_FILE])).toBeNull();
  });

  test('one attempt per account at a time; accounts go side by side', async () => {
    await enqueue('k-a1');
    await enqueue('k-a2');
    await enqueue('k-b1', bob);
    const w = worker();
    await w.pass();
    expect(smtp.calls.map((call) => call.raw.toString().match(/<(k-[a-z0-9]+)@/)![1])).toEqual(['k-a1', 'k-b1']);
    expect(smtp.maxActive).toBe(2);
    await w.runDue();
    expect(smtp.calls).toHaveLength(3);
    expect(smtp.maxActive).toBe(2);
  });
});
