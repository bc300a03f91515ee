/**
 * LeaseKeeper (cluster/lease-keeper.ts) on both engines: nodes sharing accounts through their
 * leases, driven tick by tick with an injected clock. On PostgreSQL each node has its own
 * pool on the same database; SQLite's nodes share its one store.
 */
import { expect, test } from 'vitest';
import { AccountLeases } from '../../../src-server/cluster/account-leases';
import { LeaseKeeper } from '../../../src-server/cluster/lease-keeper';
import { postgresOwnership } from '../../../src-server/mirror/mirror-ownership';
import { PostgresStore } from '../../../src-server/store/postgres-store';
import type { SqlStore } from '../../../src-server/store/sql';
import { useClusterNodes } from '../support/cluster-nodes';
import { describeOnEngines } from '../support/engines';

const TTL = 9_000;

describeOnEngines('LeaseKeeper', (engine) => {
  const nodes = useClusterNodes(engine);

  /** A node: its keeper, and what it was told (gained/lost, with tokens). */
  const node = (holder: string, wanted: number[], maxHeld?: number, spread?: { slack: number }) => {
    const events: string[] = [];
    const leases = new AccountLeases({ store: nodes.nodeStore(), now: nodes.clock });
    const keeper = new LeaseKeeper({
      leases,
      holder,
      ttlMs: TTL,
      wanted: async () => wanted,
      onGained: (accountId, token) => events.push(`+${accountId}@${token}`),
      onLost: (accountId, token) => events.push(`-${accountId}@${token}`),
      ...(maxHeld === undefined ? {} : { maxHeld }),
      ...(spread === undefined ? {} : { spread }),
    });
    return { keeper, events, wanted, leases };
  };

  test('one node takes the free accounts; when it stops renewing, another takes them over with larger tokens and the first is told it lost them', async () => {
    const a = node('node-a', [1, 2, 3]);
    const b = node('node-b', [1, 2, 3]);
    await a.keeper.tick();
    await b.keeper.tick();
    expect(a.events).toEqual(['+1@1', '+2@1', '+3@1']);
    expect(b.events).toEqual([]);

    nodes.now += TTL / 3;
    await a.keeper.tick(); // renewed: live until now + TTL
    nodes.now += TTL - 1;
    await b.keeper.tick();
    expect(b.events).toEqual([]);

    nodes.now += 1; // node-a died after its last renewal
    await b.keeper.tick();
    expect(b.events).toEqual(['+1@2', '+2@2', '+3@2']);
    await a.keeper.tick();
    expect(a.events.slice(3)).toEqual(['-1@1', '-2@1', '-3@1']);
    expect([...a.keeper.holdings()]).toEqual([]);
    expect([...b.keeper.holdings()]).toEqual([[1, 2], [2, 2], [3, 2]]);
  });

  test("a node knows when another holder's lease of a wanted account lapses: a live holder's is always more than a tick away, a dead one's comes sooner", async () => {
    const a = node('node-a', [1, 2]);
    const b = node('node-b', [1, 2, 3]);
    await a.keeper.tick();
    expect(a.keeper.nextLapseInMs()).toBeNull(); // nothing wanted is held elsewhere
    await b.keeper.tick(); // takes 3; 1 and 2 are node-a's, renewed just now
    expect(b.keeper.nextLapseInMs()).toBe(TTL);

    nodes.now += TTL / 3;
    await a.keeper.tick(); // a live holder renews every third of the TTL...
    nodes.now += TTL / 3 - 1;
    await b.keeper.tick(); // ...so at any tick of b's its lease is over two thirds of the TTL away
    expect(b.keeper.nextLapseInMs()).toBe(TTL - (TTL / 3 - 1));
    expect(b.keeper.nextLapseInMs()!).toBeGreaterThan(TTL / 3);

    nodes.now += TTL / 2; // node-a died after its last renewal: its leases lapse before b's next regular tick
    await b.keeper.tick();
    expect(b.keeper.nextLapseInMs()).toBe(TTL / 6 + 1);
    expect(b.keeper.nextLapseInMs()!).toBeLessThan(TTL / 3);
    nodes.now += TTL / 6 + 1;
    await b.keeper.tick();
    expect(b.events).toEqual(['+3@1', '+1@2', '+2@2']);
    expect(b.keeper.nextLapseInMs()).toBeNull();
  });

  test('a started keeper wakes when a dead holder\'s lease lapses, not at its next regular tick', async () => {
    const leases = new AccountLeases({ store: nodes.nodeStore() });
    expect(await leases.acquire(7, 'node-dead', 300)).toBe(1); // a holder that will never renew
    const everyMs = 20_000; // the survivor's regular tick: TTL / 3
    let gained!: () => void;
    const taken = new Promise<void>((resolve) => (gained = resolve));
    const keeper = new LeaseKeeper({ leases, holder: 'node-live', ttlMs: everyMs * 3, wanted: async () => [7], onGained: () => gained(), onLost: () => undefined });
    const started = Date.now();
    await keeper.start();
    expect(keeper.nextLapseInMs()).toBeLessThanOrEqual(300);
    await taken;
    // Without the wake it would come at the regular tick, 20 s after the start.
    expect(Date.now() - started).toBeLessThan(everyMs / 2);
    expect([...keeper.holdings()]).toEqual([[7, 2]]);
    await keeper.stop();
  });

  test('a node holds at most its share; an account it no longer wants, or all of them when it stops, go to another at once', async () => {
    const a = node('node-a', [1, 2, 3], 2);
    const b = node('node-b', [1, 2, 3]);
    await a.keeper.tick();
    await b.keeper.tick();
    expect(a.events).toEqual(['+1@1', '+2@1']);
    expect(b.events).toEqual(['+3@1']);

    a.wanted.splice(0, 1); // account 1 is no longer node-a's
    await a.keeper.tick();
    expect(a.events.slice(2)).toEqual(['-1@1']);
    await b.keeper.tick();
    expect(b.events.slice(1)).toEqual(['+1@2']);

    await b.keeper.stop();
    expect(b.events.slice(2).sort()).toEqual(['-1@2', '-3@1']);
    await a.keeper.tick();
    expect(a.events.slice(3)).toEqual(['+3@2']);
  });

  test('a round takes every free account in one statement: a takeover of hundreds of accounts is held within a round trip', async () => {
    const store = nodes.nodeStore();
    const statements: string[] = [];
    const counted: SqlStore = {
      dialect: store.dialect,
      location: store.location,
      all: (sql, params) => (statements.push(sql), store.all(sql, params)),
      get: (sql, params) => (statements.push(sql), store.get(sql, params)),
      run: (sql, params) => (statements.push(sql), store.run(sql, params)),
      transaction: (body) => store.transaction(body),
      close: () => store.close(),
    };
    const accounts = Array.from({ length: 300 }, (_, i) => i + 1);
    const b = node('node-b', accounts);
    for (const accountId of accounts.slice(0, 10)) await b.leases.acquire(accountId, 'node-b', TTL); // ten live elsewhere
    const events: string[] = [];
    const keeper = new LeaseKeeper({
      leases: new AccountLeases({ store: counted, now: nodes.clock }),
      holder: 'node-a',
      ttlMs: TTL,
      wanted: async () => accounts,
      onGained: (accountId, token) => events.push(`+${accountId}@${token}`),
      onLost: (accountId, token) => events.push(`-${accountId}@${token}`),
    });
    await keeper.tick();
    expect(events).toEqual(accounts.slice(10).map((accountId) => `+${accountId}@1`));
    expect(statements.filter((sql) => sql.includes('INSERT INTO account_leases'))).toHaveLength(1);
    expect(statements.length).toBeLessThanOrEqual(3); // renew, held elsewhere, acquire
  });

  test.runIf(engine.dialect === 'postgres')("on PostgreSQL the node's keeper takes and renews leases while the mirrors' traffic fills the main pool", async () => {
    // The main pool with every connection busy in a transaction, as when hundreds of mirrors start at once.
    const main = PostgresStore.connect(nodes.store.location, { max: 2 });
    let endTraffic!: () => void;
    const traffic = new Promise<void>((resolve) => (endTraffic = resolve));
    const busy = [main.transaction(() => traffic), main.transaction(() => traffic)];
    const ownership = postgresOwnership({ store: main, databaseUrl: nodes.store.location, holder: 'node-a', ttlMs: TTL });
    try {
      const keeperWork = (async () => {
        const token = await ownership.leases.acquire(1, 'node-a', TTL);
        const renewed = await ownership.leases.renewAll('node-a', TTL);
        return { token, renewed: [...renewed], wanted: await ownership.wanted!() };
      })();
      // Done while the main pool is still full: the keeper does not queue behind it (if it did, this would wait until the test's time limit).
      expect(await keeperWork).toEqual({ token: 1, renewed: [[1, 1]], wanted: [] });
    } finally {
      endTraffic();
      await Promise.all(busy);
      await ownership.close!();
      await main.close();
    }
    // The fencing check runs on the main store, inside the write's own transaction.
    const check = postgresOwnership({ store: nodes.store, databaseUrl: nodes.store.location, holder: 'node-a', ttlMs: TTL });
    await check.close!();
    await nodes.store.transaction(() => check.fencing!.check(1, 1));
  });

  test("a lease of the node's that its keeper does not know (an acquire whose answer was lost) is given up, and taken again with a new token", async () => {
    const a = node('node-a', [5]);
    expect(await a.leases.acquire(5, 'node-a', TTL)).toBe(1);
    await a.keeper.tick();
    expect(a.events).toEqual(['+5@2']);
    await expect(a.leases.check(5, 1)).rejects.toThrow('moved on to token 2');
  });

  test('three spreading nodes share ten accounts 4/4/2: the first takes all, sheds its newest once the others beat; a dead node’s accounts go to the living, each up to its new share', async () => {
    const accounts = Array.from({ length: 10 }, (_, i) => i + 1);
    const [a, b, c] = ['node-a', 'node-b', 'node-c'].map((holder) => node(holder, [...accounts], undefined, { slack: 1 }));
    const held = (n: typeof a) => [...n!.keeper.holdings().keys()].sort((x, y) => x - y);
    await a!.keeper.tick(); // alone: its share is everything
    expect(held(a)).toEqual(accounts);
    await b!.keeper.tick();
    await c!.keeper.tick(); // they beat, but nothing is free yet
    expect([held(b), held(c)]).toEqual([[], []]);
    await a!.keeper.tick(); // three live nodes: share 4, and 10 > 4 + 1: the newest six go back
    expect(held(a)).toEqual([1, 2, 3, 4]);
    expect(a!.events.slice(10)).toEqual(['-10@1', '-9@1', '-8@1', '-7@1', '-6@1', '-5@1']);
    await b!.keeper.tick();
    await c!.keeper.tick();
    expect([held(a), held(b), held(c)]).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]);
    for (const n of [a, b, c]) await n!.keeper.tick(); // stable: nobody sheds or takes
    expect([held(a), held(b), held(c)]).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]);

    // node-c dies: its leases and its heartbeat lapse together; the two left take 9 and 10, one each (share 5).
    for (let step = 0; step < 3; step++) {
      nodes.now += TTL / 3;
      await a!.keeper.tick();
      await b!.keeper.tick();
    }
    expect([held(a), held(b)]).toEqual([[1, 2, 3, 4, 9], [5, 6, 7, 8, 10]]);

    // A node that stops leaves at once: the last one takes everything.
    await b!.keeper.stop();
    await a!.keeper.tick();
    expect(held(a)).toEqual(accounts);
  });
});
