/**
 * What crosses gateway nodes (issue 12 point 2), on a real redis-server from the harness:
 * two "nodes" in this process, each with its own SharedState and Redis connections, as two
 * gateways behind a balancer would have.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TernError } from '../../shared/errors';
import type { Session } from '../../src-server/accounts/session-store';
import { openSharedState, type SharedState } from '../../src-server/shared-state/open-shared-state';
import type { SessionEvents } from '../../src-server/shared-state/session-end-relay';
import { findFreePorts } from '../harness/ports';
import { startRedis, type RedisServer } from '../harness/redis-server';

const WAIT_MS = 10_000;

/** Values a listener heard, and a way to wait for one of them (no sleeps). */
class Heard<T> {
  readonly values: T[] = [];
  private waiters: Array<{ matches: (value: T) => boolean; resolve: () => void }> = [];

  readonly add = (value: T) => {
    this.values.push(value);
    for (const waiter of this.waiters.filter((w) => w.matches(value))) waiter.resolve();
    this.waiters = this.waiters.filter((w) => !w.matches(value));
  };

  /** Resolves once a value matching `matches` has been heard (now or before). */
  until(matches: (value: T) => boolean, what: string): Promise<void> {
    if (this.values.some(matches)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not heard within ${WAIT_MS} ms: ${what} (heard ${JSON.stringify(this.values)})`)), WAIT_MS);
      this.waiters.push({ matches, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}

let dir: string;
let redis: RedisServer;
/** The test's own connection, to ask Redis who is subscribed. */
let probe: Redis;
/** The "database": each account's newest transaction id, read by a node after a reconnect. */
const latest = new Map<number, number>();
const nodes: Array<{ shared: SharedState; errors: Heard<unknown> }> = [];

async function startNode() {
  const errors = new Heard<unknown>();
  /** This node's SessionStore events (only 'ended' is relayed). */
  const sessions: SessionEvents = new EventEmitter();
  const shared = await openSharedState({ redisUrl: redis.url, sessions, latest: (accountId) => latest.get(accountId) ?? 0, onError: errors.add });
  const node = { shared, errors, sessions };
  nodes.push(node);
  return node;
}

/** What a write on `node` does: the log grows, then the hub announces it. */
function write(node: { shared: SharedState }, accountId: number, txnId: number) {
  latest.set(accountId, txnId);
  node.shared.push.announce(accountId, txnId);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-redis-'));
  redis = await startRedis({ dir: join(dir, 'redis') });
  probe = new Redis(redis.url);
  probe.on('error', () => undefined); // it reconnects by itself after the restart test
});

afterAll(async () => {
  for (const node of nodes) await node.shared.close();
  probe?.disconnect();
  await redis?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('push across nodes', () => {
  test('a write announced on node A reaches a listener on node B exactly once, and A’s own listener once', async () => {
    const [a, b] = [await startNode(), await startNode()];
    const onA = new Heard<number>();
    const onB = new Heard<number>();
    latest.set(1, 4);
    a.shared.push.subscribe(1, onA.add);
    b.shared.push.subscribe(1, onB.add);
    await subscribed(1, 2); // A's and B's subscriptions are confirmed by Redis
    // Each node read the newest id once its subscription was through (what a socket's open may have missed).
    await Promise.all([onA.until((id) => id === 4, 'A reads 4'), onB.until((id) => id === 4, 'B reads 4')]);

    write(a, 1, 5);
    write(a, 1, 6);
    await onB.until((id) => id === 6, 'B hears 6');
    // Messages reach a connection in the order Redis took them: B's 7 (sent after B heard
    // 6) arrives at A after any echo of A's own 5 and 6, and A's 8 at B after any of 7.
    write(b, 1, 7);
    await onA.until((id) => id === 7, 'A hears 7');
    write(a, 1, 8);
    await onB.until((id) => id === 8, 'B hears 8');
    expect(onA.values).toEqual([4, 5, 6, 7, 8]); // 8 from its own write, directly
    expect(onB.values).toEqual([4, 5, 6, 7, 8]);
  });

  test('a node hears only the accounts it has listeners for', async () => {
    const [a, b] = [await startNode(), await startNode()];
    const onB = new Heard<number>();
    latest.set(2, 39);
    b.shared.push.subscribe(2, onB.add);
    await onB.until((id) => id === 39, 'B reads 39 once subscribed');
    write(a, 3, 40); // nobody listens for account 3
    write(a, 2, 41);
    await onB.until((id) => id === 41, 'B hears 41');
    expect(onB.values).toEqual([39, 41]);
  });

  test('after a Redis restart a node re-reads what it missed, and hears new announcements', async () => {
    const [a, b] = [await startNode(), await startNode()];
    const onB = new Heard<number>();
    latest.set(4, 99);
    b.shared.push.subscribe(4, onB.add);
    await onB.until((id) => id === 99, 'B reads 99 once subscribed');
    write(a, 4, 100);
    await onB.until((id) => id === 100, 'B hears 100');

    await redis.stop();
    // Written while Redis is down: A's publish fails (reported once); pub/sub keeps nothing.
    write(a, 4, 101);
    await a.errors.until((error) => /max retries/i.test(String(error)), 'A reports the failed publish');
    await redis.start();
    await onB.until((id) => id === 101, 'B re-reads 101 after reconnecting');

    write(a, 4, 102);
    await onB.until((id) => id === 102, 'B hears 102');
    expect(onB.values).toEqual([99, 100, 101, 102]);
  });

  test('a node reads the newest id once its subscription is through: what was published before reached nobody here', async () => {
    const b = await startNode();
    const onB = new Heard<number>();
    // Written and published on another node after B's socket read the log, before B's SUBSCRIBE was through.
    latest.set(5, 201);
    b.shared.push.subscribe(5, onB.add);
    await onB.until((id) => id === 201, 'B reads 201 once subscribed');
    expect(onB.values).toEqual([201]);
  });
});

describe('logouts across nodes', () => {
  test('a session ended on node A ends on node B (its sockets there close), once, and is not sent back', async () => {
    const [a, b] = [await startNode(), await startNode()];
    const endedOnA = new Heard<string>();
    const endedOnB = new Heard<string>();
    a.sessions.on('ended', (session: Session) => endedOnA.add(session.tokenHash));
    b.sessions.on('ended', (session: Session) => endedOnB.add(session.tokenHash));
    await subscribed('tern:session-ended', nodes.length);

    a.sessions.emit('ended', { accountId: 1, tokenHash: 'first' });
    await endedOnB.until((hash) => hash === 'first', 'B ends the first session');
    // In Redis's order: were B to send the first back, A would get it before B's second.
    b.sessions.emit('ended', { accountId: 1, tokenHash: 'second' });
    await endedOnA.until((hash) => hash === 'second', 'A ends the second session');
    a.sessions.emit('ended', { accountId: 2, tokenHash: 'third' });
    await endedOnB.until((hash) => hash === 'third', 'B ends the third session');
    expect(endedOnA.values).toEqual(['first', 'second', 'third']);
    expect(endedOnB.values).toEqual(['first', 'second', 'third']);
  });
});

describe('login throttle across nodes', () => {
  test('failures counted on node A refuse the same address on node B after the limit, with the same error', async () => {
    const [a, b] = [await startNode(), await startNode()];
    const who = { email: 'mallory-target@tern.test', ip: '203.0.113.7' };
    for (let i = 0; i < 9; i++) await a.shared.throttle.failed(await a.shared.throttle.begin(who), { countsForAddress: true });
    // The tenth is still allowed, on either node; it is counted on B.
    await b.shared.throttle.failed(await b.shared.throttle.begin(who), { countsForAddress: true });
    const refusal = await Promise.resolve(a.shared.throttle.begin(who)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(TernError);
    expect((refusal as TernError).name).toBe('TooManyRequests');
    await expect(Promise.resolve(b.shared.throttle.begin(who))).rejects.toThrow(/Too many attempts/);
    // Another address from the same IP is not refused.
    await expect(Promise.resolve(b.shared.throttle.begin({ ...who, email: 'someone-else@tern.test' }))).resolves.toMatchObject({ address: 'someone-else@tern.test' });
  });

  test('while Redis is away a node counts logins itself, with the same limits, and nobody waits for Redis', async () => {
    const a = await startNode();
    const who = { email: 'during-outage@tern.test', ip: '203.0.113.8' };
    await redis.stop();
    try {
      for (let i = 0; i < 10; i++) await a.shared.throttle.failed(await a.shared.throttle.begin(who), { countsForAddress: true });
      await expect(Promise.resolve(a.shared.throttle.begin(who))).rejects.toThrow(/Too many attempts/);
      await expect(Promise.resolve(a.shared.throttle.lookup({ ip: who.ip }))).resolves.toBeUndefined();
    } finally {
      await redis.start();
    }
  });

  test('address checks are counted across nodes too', async () => {
    const [a, b] = [await startNode(), await startNode()];
    const ip = '198.51.100.99';
    for (let i = 0; i < 30; i++) await a.shared.throttle.lookup({ ip });
    for (let i = 0; i < 30; i++) await b.shared.throttle.lookup({ ip });
    await expect(Promise.resolve(a.shared.throttle.lookup({ ip }))).rejects.toThrow(/Too many attempts/);
  });
});

/**
 * Resolves once Redis has confirmed `count` subscriptions to a channel, an account's by its id (PUBSUB
 * NUMSUB): a listener added a moment ago may still be on its way to Redis.
 */
async function subscribed(accountOrChannel: number | string, count: number): Promise<void> {
  const channel = typeof accountOrChannel === 'number' ? `tern:push:${accountOrChannel}` : accountOrChannel;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const [, subscribers] = (await probe.pubsub('NUMSUB', channel)) as [string, number];
    if (Number(subscribers) >= count) return;
    if (Date.now() > deadline) throw new Error(`${channel}: ${String(subscribers)} of ${count} subscriptions after ${WAIT_MS} ms`);
  }
}

describe('starting without a reachable Redis', () => {
  test('a TERN_REDIS_URL nobody answers stops the start with a sentence naming it (and no password)', async () => {
    const [port] = await findFreePorts(1);
    const attempt = openSharedState({ redisUrl: `redis://:hunter2@127.0.0.1:${port}`, sessions: new EventEmitter(), latest: () => 0, onError: () => undefined });
    await expect(attempt).rejects.toThrow(new RegExp(`^TERN_REDIS_URL: cannot reach Redis at redis://127\\.0\\.0\\.1:${port} \\(.*ECONNREFUSED`));
    await expect(attempt).rejects.not.toThrow(/hunter2/);
  });
});
