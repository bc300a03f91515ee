/**
 * For tests of what several gateway nodes share through the database (leases, jobs): a
 * fresh store per test, more stores on the same database as other nodes would hold them,
 * and a clock the test moves by hand.
 */
import { afterEach, beforeEach } from 'vitest';
import { PostgresStore } from '../../../src-server/store/postgres-store';
import type { SqlStore } from '../../../src-server/store/sql';
import type { Engine } from './engines';

export interface ClusterNodes {
  /** The first node's store, fresh and migrated for each test. */
  readonly store: SqlStore;
  /** Another node's store: on PostgreSQL a pool of its own on the same database; SQLite has one node, so its one store. */
  nodeStore(): SqlStore;
  /** The injected clock's time (epoch ms); the test moves it. */
  now: number;
  readonly clock: () => number;
}

/** Registers the hooks that open and close the stores; call inside `describeOnEngines`. */
export function useClusterNodes(engine: Engine): ClusterNodes {
  let store: SqlStore | null = null;
  let others: SqlStore[] = [];
  const nodes: ClusterNodes = {
    get store() {
      if (!store) throw new Error('The store opens in beforeEach.');
      return store;
    },
    nodeStore() {
      if (nodes.store.dialect === 'sqlite') return nodes.store;
      // The harness's URL has no password, so the location (the URL without one) reaches the same database.
      const other = PostgresStore.connect(nodes.store.location, { max: 3 });
      others.push(other);
      return other;
    },
    now: 0,
    clock: () => nodes.now,
  };
  beforeEach(async () => {
    store = await engine.open();
    nodes.now = 1_800_000_000_000;
  });
  afterEach(async () => {
    await Promise.all(others.map((other) => other.close()));
    others = [];
    await store?.close();
    store = null;
  });
  return nodes;
}
