/** Persisted analytics queues, one row per queue in the accounts database. */
import type { AnalyticsEventRecord } from '../../shared/analytics-events';
import type { AccountsTable } from '../accounts/accounts-database';
import { withRead, withWrite, type LocalStore } from '../db/store';

export interface QueueStorage {
  load(queueId: string): Promise<AnalyticsEventRecord[]>;
  save(queueId: string, events: readonly AnalyticsEventRecord[]): Promise<void>;
  delete(queueId: string): Promise<void>;
}

export function storedQueues(store: () => Promise<LocalStore<AccountsTable>>): QueueStorage {
  return {
    async load(queueId) {
      const row = await withRead(await store(), ['analyticsQueues'], (tx) => tx.get('analyticsQueues', queueId));
      return Array.isArray(row?.events) ? (row.events as AnalyticsEventRecord[]) : [];
    },
    async save(queueId, events) {
      await withWrite(await store(), ['analyticsQueues'], (tx) =>
        events.length === 0 ? tx.delete('analyticsQueues', queueId) : tx.put('analyticsQueues', { id: queueId, events }),
      );
    },
    async delete(queueId) {
      await withWrite(await store(), ['analyticsQueues'], (tx) => tx.delete('analyticsQueues', queueId));
    },
  };
}
