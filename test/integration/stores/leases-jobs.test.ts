/**
 * The cluster's building blocks on both engines (issue 12 points 3 and 4): account leases
 * with fencing tokens (cluster/account-leases.ts) and the job queue (jobs/). On PostgreSQL
 * each "node" has its own pool on the same database, as separate gateway processes would;
 * SQLite has one node, so its workers share the one store. Time is an injected clock.
 */
import { expect, test } from 'vitest';
import { AccountLeases, StaleLeaseError } from '../../../src-server/cluster/account-leases';
import { JobQueue } from '../../../src-server/jobs/job-queue';
import { JobWorker, PermanentJobError, type JobHandler } from '../../../src-server/jobs/job-worker';
import type { SqlStore } from '../../../src-server/store/sql';
import { useClusterNodes } from '../support/cluster-nodes';
import { describeOnEngines } from '../support/engines';

const TTL = 10_000;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describeOnEngines('Account leases and jobs', (engine) => {
  const nodes = useClusterNodes(engine);

  /** The stores of `count` nodes (the first is the test's own store). */
  const nodeStores = (count: number): SqlStore[] => Array.from({ length: count }, (_, i) => (i === 0 ? nodes.store : nodes.nodeStore()));
  const leasesOf = (stores: SqlStore[]) => stores.map((node) => new AccountLeases({ store: node, now: nodes.clock }));

  test('two nodes race for each account: exactly one gets a token, and the loser cannot renew it', async () => {
    const [a, b] = leasesOf(nodeStores(2));
    for (let accountId = 1; accountId <= 10; accountId++) {
      const [tokenA, tokenB] = await Promise.all([a!.acquire(accountId, 'node-a', TTL), b!.acquire(accountId, 'node-b', TTL)]);
      expect([tokenA, tokenB].filter((token) => token !== null)).toEqual([1]);
      const [winner, loser, loserName] = tokenA !== null ? [a!, b!, 'node-b'] : [b!, a!, 'node-a'];
      expect(await loser.renew(accountId, loserName, 1, TTL)).toBe(false);
      expect(await loser.acquire(accountId, loserName, TTL)).toBeNull();
      expect((await winner.current(accountId))?.holder).toBe(loserName === 'node-a' ? 'node-b' : 'node-a');
    }
  });

  test('a renewed lease stays; once expired another node takes over with a larger token and the old one is refused', async () => {
    const [a, b] = leasesOf(nodeStores(2));
    const first = (await a!.acquire(7, 'node-a', TTL))!;
    nodes.now += TTL - 1_000;
    expect(await a!.renew(7, 'node-a', first, TTL)).toBe(true);
    nodes.now += TTL - 1; // past the first expiry, inside the renewed one
    expect(await b!.acquire(7, 'node-b', TTL)).toBeNull();
    await a!.check(7, first);

    nodes.now += 1; // the holder died: no renewal came
    const second = await b!.acquire(7, 'node-b', TTL);
    expect(second).toBeGreaterThan(first);
    expect(await a!.renew(7, 'node-a', first, TTL)).toBe(false);
    const refused = await a!.check(7, first).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StaleLeaseError);
    expect((refused as Error).message).toBe(`A write for account 7 under lease token ${first} was refused: the lease has moved on to token ${second} (held by node-b).`);
    await b!.check(7, second!);

    // A release frees it at once; the token still only grows.
    expect(await b!.release(7, 'node-b', second!)).toBe(true);
    await expect(b!.check(7, second!)).rejects.toThrow('its holder node-b released the lease');
    expect(await b!.renew(7, 'node-b', second!, TTL)).toBe(false);
    const third = await a!.acquire(7, 'node-a', TTL);
    expect(third).toBe(second! + 1);

    // The holder acquiring again (its mirror restarted) starts a new tenure: a new token, the old one refused.
    expect(await a!.acquire(7, 'node-a', TTL)).toBe(third! + 1);
    await expect(a!.check(7, third!)).rejects.toThrow(`moved on to token ${third! + 1} (held by node-a)`);
  });

  test('acquireMany takes the free, released, expired and own accounts in one go and skips the ones another node holds live', async () => {
    const [a, b] = leasesOf(nodeStores(2));
    const expired = (await b!.acquire(2, 'node-b', TTL / 2))!;
    const released = (await b!.acquire(3, 'node-b', TTL))!;
    await b!.release(3, 'node-b', released);
    const own = (await a!.acquire(4, 'node-a', TTL))!;
    const live = (await b!.acquire(5, 'node-b', TTL))!;
    nodes.now += TTL / 2; // account 2's lease lapses now; 5's is still live
    // Account 1 was never leased; a duplicate is tolerated.
    const tokens = await a!.acquireMany([1, 2, 3, 4, 5, 1], 'node-a', TTL);
    expect([...tokens].sort(([x], [y]) => x - y)).toEqual([[1, 1], [2, expired + 1], [3, released + 1], [4, own + 1]]);
    for (const [accountId, token] of tokens) await a!.check(accountId, token);
    await b!.check(5, live);
    expect(await a!.acquireMany([], 'node-a', TTL)).toEqual(new Map());
  });

  test('two nodes racing acquireMany over the same accounts: each account goes to exactly one of them', async () => {
    const [a, b] = leasesOf(nodeStores(2));
    const accounts = Array.from({ length: 40 }, (_, i) => i + 1);
    const [byA, byB] = await Promise.all([a!.acquireMany(accounts, 'node-a', TTL), b!.acquireMany([...accounts].reverse(), 'node-b', TTL)]);
    for (const accountId of accounts) expect(Number(byA.has(accountId)) + Number(byB.has(accountId))).toBe(1);
  });

  test('an expired lease refuses writes even before anyone takes it over; no lease at all refuses them too', async () => {
    const [a] = leasesOf([nodes.store]);
    const token = (await a!.acquire(3, 'node-a', TTL))!;
    nodes.now += TTL;
    await expect(a!.check(3, token)).rejects.toThrow('the lease expired 0 ms ago');
    expect(await a!.renew(3, 'node-a', token, TTL)).toBe(false);
    expect(await a!.current(3)).toBeNull();
    await expect(a!.check(4, 1)).rejects.toThrow("no node has ever held that account's lease");
  });

  test('a write checked under the lease holds off a takeover until it commits', async () => {
    const [storeA, storeB] = nodeStores(2);
    const [a, b] = leasesOf([storeA!, storeB!]);
    const token = (await a!.acquire(9, 'node-a', TTL))!;
    const checked = deferred();
    const proceed = deferred();
    const write = storeA!.transaction(async (tx) => {
      await a!.check(9, token);
      checked.resolve();
      await proceed.promise;
      await tx.run("INSERT INTO jobs (kind, payload, state, run_at, max_attempts, created_at, updated_at) VALUES ('mirror-write', '{}', 'done', 0, 1, 0, 0)");
    });
    await checked.promise;
    nodes.now += TTL; // the lease expires while the write is under way
    let tookOver = false;
    const takeover = b!.acquire(9, 'node-b', TTL).then((next) => ((tookOver = true), next));
    // On PostgreSQL, until the takeover's statement waits on the row lock (without the lock it
    // would not wait, but end at once).
    if (nodes.store.dialect === 'postgres') await waitForLockWait(nodes.store, takeover);
    const waitedForTheWrite = !tookOver;
    proceed.resolve();
    await write;
    expect(waitedForTheWrite).toBe(true);
    expect(await takeover).toBe(token + 1);
    expect(await nodes.store.get("SELECT kind FROM jobs WHERE kind = 'mirror-write'")).toEqual({ kind: 'mirror-write' });
  });

  test('50 jobs claimed by 4 concurrent workers run exactly once each', async () => {
    await enqueueCounted(new JobQueue({ store: nodes.store, now: nodes.clock }), 50);
    const runs = new Map<number, number>();
    const ranOn = new Set<string>();
    // The first four jobs wait for each other: every worker holds one at the same moment.
    const together = deferred();
    let arrived = 0;
    const handler =
      (worker: string): JobHandler =>
      async (payload) => {
        const n = (payload as { n: number }).n;
        runs.set(n, (runs.get(n) ?? 0) + 1);
        ranOn.add(worker);
        if (arrived < 4 && ++arrived === 4) together.resolve();
        await together.promise;
      };
    const workers = nodeStores(4).map(
      (node, i) => new JobWorker({ queue: new JobQueue({ store: node, now: nodes.clock }), name: `node-${i}`, handlers: { counted: handler(`node-${i}`) }, options: { concurrency: 1, lockMs: 60_000 } }),
    );
    await Promise.all(workers.map(async (worker) => { while ((await worker.runDue()) > 0); }));

    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(ranOn.size).toBe(4);
    const states = await nodes.store.all<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state');
    expect(states).toEqual([{ state: 'done', n: 50 }]);
  });

  test("a job whose worker died is run again by another once the claim lapses; the dead worker's late report is refused", async () => {
    const [storeA, storeB] = nodeStores(2);
    const queueA = new JobQueue({ store: storeA!, now: nodes.clock });
    const id = await queueA.enqueue('counted', { n: 1 }, nodes.now);
    const [claimed] = await queueA.claim({ worker: 'node-a', kinds: ['counted'], limit: 5, lockMs: 30_000 });
    expect(claimed).toMatchObject({ id, attempt: 1, payload: { n: 1 } });

    const attempts: number[] = [];
    const lateReports: unknown[] = [];
    const rerun: JobHandler = async (_, { job }) => {
      attempts.push(job.attempt);
      // node-a wakes up while node-b runs the job: its outcome must not land on node-b's claim.
      lateReports.push(await queueA.complete(claimed!), await queueA.fail(claimed!, 'too late'), await queueA.extend(claimed!, 30_000));
    };
    const workerB = new JobWorker({ queue: new JobQueue({ store: storeB!, now: nodes.clock }), name: 'node-b', handlers: { counted: rerun }, options: { lockMs: 30_000 } });
    nodes.now += 29_999;
    expect(await workerB.runDue()).toBe(0);
    nodes.now += 1;
    expect(await workerB.runDue()).toBe(1);
    expect(attempts).toEqual([2]);
    expect(lateReports).toEqual([false, 'lost', false]);
    expect(await queueA.get(id)).toMatchObject({ state: 'done', attempts: 2, claimedBy: 'node-b', lastError: null });
  });

  test('a failing job is retried after its backoff, then dead after its last attempt; a lapsed last attempt is dead too', async () => {
    const queue = new JobQueue({ store: nodes.store, now: nodes.clock, policies: { flaky: { maxAttempts: 3, firstDelayMs: 1_000, factor: 2, maxDelayMs: 60_000 } } });
    const attempts: number[] = [];
    const worker = new JobWorker({ queue, name: 'node-a', handlers: { flaky: async (_, { job }) => { attempts.push(job.attempt); throw new Error(`refused ${job.attempt}`); } } });
    const id = await queue.enqueue('flaky', null, nodes.now);

    expect(await worker.runDue()).toBe(1);
    expect(await queue.get(id)).toMatchObject({ state: 'queued', runAt: nodes.now + 1_000, attempts: 1, lastError: 'refused 1' });
    nodes.now += 999;
    expect(await worker.runDue()).toBe(0);
    nodes.now += 1;
    expect(await worker.runDue()).toBe(1);
    expect(await queue.get(id)).toMatchObject({ state: 'queued', runAt: nodes.now + 2_000, attempts: 2 });
    nodes.now += 2_000;
    expect(await worker.runDue()).toBe(1);
    expect(await queue.get(id)).toMatchObject({ state: 'dead', attempts: 3, lastError: 'refused 3' });
    nodes.now += 24 * 3_600_000;
    expect(await worker.runDue()).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);

    // A worker that dies during the last attempt: the job is dead, not run a fourth time.
    const lapsed = await queue.enqueue('flaky', null, nodes.now);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await queue.claim({ worker: 'doomed', kinds: ['flaky'], limit: 1, lockMs: 1_000 });
      nodes.now += 1_000;
    }
    expect(await worker.runDue()).toBe(0);
    expect(await queue.get(lapsed)).toMatchObject({ state: 'dead', attempts: 3, lastError: 'Its worker stopped (its claim lapsed) during the last attempt.' });
  });

  test('a permanent failure is dead at once; a job that fails once then succeeds is done', async () => {
    const queue = new JobQueue({ store: nodes.store, now: nodes.clock });
    let calls = 0;
    const worker = new JobWorker({
      queue,
      name: 'node-a',
      handlers: {
        refused: async () => { throw new PermanentJobError('550 no such user'); },
        flaky: async () => { if (++calls === 1) throw new Error('421 try later'); },
      },
    });
    const refused = await queue.enqueue('refused', { to: 'x@example.com' }, nodes.now);
    const flaky = await queue.enqueue('flaky', {}, nodes.now);
    expect(await worker.runDue()).toBe(2);
    expect(await queue.get(refused)).toMatchObject({ state: 'dead', attempts: 1, lastError: '550 no such user' });
    nodes.now = (await queue.get(flaky))!.runAt;
    expect(await worker.runDue()).toBe(1);
    expect(await queue.get(flaky)).toMatchObject({ state: 'done', attempts: 2, lastError: null });
  });

  test('a started worker runs a job enqueued on its node when kicked, and stop waits for the job under way', async () => {
    const queue = new JobQueue({ store: nodes.store, now: nodes.clock });
    const began = deferred();
    const finish = deferred();
    let ended = false;
    const worker = new JobWorker({
      queue,
      name: 'node-a',
      handlers: { counted: async () => { began.resolve(); await finish.promise; ended = true; } },
      options: { idleCheckMs: 60_000 },
    });
    worker.start();
    const id = await queue.enqueue('counted', { n: 1 }, nodes.now);
    worker.kick();
    await began.promise;
    const stopped = worker.stop().then(() => ended);
    finish.resolve();
    expect(await stopped).toBe(true);
    expect(await queue.get(id)).toMatchObject({ state: 'done', claimedBy: 'node-a' });
  });

  test('stop waits for a claim under way and the job it brings, not only for the jobs already running', async () => {
    const queue = new JobQueue({ store: nodes.store, now: nodes.clock });
    const id = await queue.enqueue('counted', { n: 1 }, nodes.now);
    let finished = false;
    const worker = new JobWorker({ queue, name: 'node-a', handlers: { counted: async () => void (finished = true) } });
    // Another node's transaction holds the table, so the worker's claim waits for it.
    const held = deferred();
    const locked = deferred();
    const blocker = nodes.nodeStore();
    const holding = blocker.transaction(async (tx) => {
      if (blocker.dialect === 'postgres') await tx.run('LOCK TABLE jobs IN EXCLUSIVE MODE');
      locked.resolve();
      await held.promise;
    });
    await locked.promise;
    const ran = worker.runDue();
    if (blocker.dialect === 'postgres') await waitForLockWait(nodes.store, ran);
    const finishedWhenStopped = worker.stop().then(() => finished);
    held.resolve();
    await holding;
    expect(await finishedWhenStopped).toBe(true);
    expect(await ran).toBe(1);
    expect(await queue.get(id)).toMatchObject({ state: 'done' });
  });

  test('a started worker deletes finished jobs older than keepDoneMs; the sole worker of a database lets a dead process’s claims lapse at its start', async () => {
    const queue = new JobQueue({ store: nodes.store, now: nodes.clock });
    const old = await queue.enqueue('counted', { n: 1 }, nodes.now);
    const worker = new JobWorker({ queue, name: 'node-a', handlers: { counted: async () => undefined } });
    expect(await worker.runDue()).toBe(1);
    nodes.now += 1_000;
    const orphan = await queue.enqueue('counted', { n: 2 }, nodes.now);
    expect(await queue.claim({ worker: 'gone', kinds: ['counted'], limit: 1, lockMs: 60_000 })).toHaveLength(1); // its process died
    const next = new JobWorker({ queue, name: 'node-b', handlers: { counted: async () => undefined }, options: { keepDoneMs: 500, soleWorker: true, idleCheckMs: 60_000 } });
    await next.start();
    try {
      await expect.poll(async () => (await queue.get(old)) ?? null).toBeNull(); // done 1 s ago, kept 0.5 s
      await expect.poll(async () => (await queue.get(orphan))?.state).toBe('done'); // taken at once, not after 60 s
      expect(await queue.get(orphan)).toMatchObject({ claimedBy: 'node-b', attempts: 2 });
    } finally {
      await next.stop();
    }
  });

  test('laned jobs: one at a time per lane, the first due first; other lanes and unlaned jobs go beside them', async () => {
    const queue = new JobQueue({ store: nodes.store, now: nodes.clock });
    const a1 = await queue.enqueue('send', { n: 'a1' }, nodes.now, undefined, 'account:1');
    const a2 = await queue.enqueue('send', { n: 'a2' }, nodes.now, undefined, 'account:1');
    const b1 = await queue.enqueue('send', { n: 'b1' }, nodes.now, undefined, 'account:2');
    const free = await queue.enqueue('send', { n: 'free' }, nodes.now);
    const claim = () => queue.claim({ worker: 'w', kinds: ['send'], limit: 10, lockMs: 10_000 });
    const first = await claim();
    expect(first.map((job) => job.id)).toEqual([a1, b1, free]);
    expect(await claim()).toEqual([]); // a2 waits for a1 while it runs
    expect(await queue.fail(first[0]!, '451 later')).toBe('queued'); // a1 retries later: a2 is now the lane's first due
    expect((await claim()).map((job) => job.id)).toEqual([a2]);
    expect(await queue.get(a1)).toMatchObject({ state: 'queued', lane: 'account:1' });
  });

  test('a dedupe key keeps one pending job per kind and key; a queued job can be cancelled, a running one not', async () => {
    const queue = new JobQueue({ store: nodes.store, now: nodes.clock });
    const first = await queue.enqueue('reminder', { thread: 1 }, nodes.now + 5_000, 'reminder:1');
    expect(await queue.enqueue('reminder', { thread: 1 }, nodes.now + 9_000, 'reminder:1')).toBe(first);
    const other = await queue.enqueue('snooze', { thread: 1 }, nodes.now, 'reminder:1');
    expect(other).not.toBe(first);
    expect(await queue.nextDueAt(['reminder'])).toBe(nodes.now + 5_000);

    const [running] = await queue.claim({ worker: 'node-a', kinds: ['snooze'], limit: 1, lockMs: 1_000 });
    expect(await queue.enqueue('snooze', { thread: 1 }, nodes.now, 'reminder:1')).toBe(other);
    expect(await queue.cancel(other)).toBe(false);
    expect(await queue.complete(running!)).toBe(true);
    const again = await queue.enqueue('snooze', { thread: 1 }, nodes.now, 'reminder:1');
    expect(again).toBeGreaterThan(other);

    expect(await queue.cancel(first)).toBe(true);
    expect(await queue.get(first)).toBeUndefined();
    expect(await queue.nextDueAt(['reminder'])).toBeNull();
    nodes.now += 1;
    expect(await queue.deleteDone(nodes.now)).toBe(1);
    expect(await queue.get(other)).toBeUndefined();
  });
});

async function enqueueCounted(queue: JobQueue, count: number): Promise<void> {
  for (let n = 0; n < count; n++) await queue.enqueue('counted', { n }, queue.now());
}

/** Until some connection of the database waits on a lock (pg_stat_activity), polled: the event has no notification; or until `unless` settles. */
async function waitForLockWait(store: SqlStore, unless: Promise<unknown>): Promise<void> {
  let settled = false;
  const done = () => (settled = true);
  unless.then(done, done);
  while (!settled) {
    const row = await store.get<{ n: number }>("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
