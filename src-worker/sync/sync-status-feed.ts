/**
 * Every account's sync status for the tabs (offline banner, "syncing…"): the latest per
 * account, sent to a new watcher at once and to all watchers on every change.
 */
import type { SyncStatus } from '../../shared/worker-mail-api';

export interface SyncStatusFeed {
  publish(status: SyncStatus): void;
  forget(accountId: string): void;
  watch(onStatus: (status: SyncStatus) => unknown): string;
  unwatch(subscriptionId: string): void;
  current(accountId: string): SyncStatus | undefined;
}

const same = (a: SyncStatus | undefined, b: SyncStatus) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

export function createSyncStatusFeed(): SyncStatusFeed {
  const latest = new Map<string, SyncStatus>();
  const watchers = new Map<string, (status: SyncStatus) => unknown>();
  const deliver = (id: string, onStatus: (status: SyncStatus) => unknown, status: SyncStatus) =>
    void Promise.resolve()
      .then(() => onStatus(status))
      .catch(() => watchers.delete(id));
  return {
    publish(status) {
      if (same(latest.get(status.accountId), status)) return;
      latest.set(status.accountId, status);
      for (const [id, onStatus] of watchers) deliver(id, onStatus, status);
    },
    forget(accountId) {
      latest.delete(accountId);
    },
    watch(onStatus) {
      const id = crypto.randomUUID();
      watchers.set(id, onStatus);
      for (const status of latest.values()) deliver(id, onStatus, status);
      return id;
    },
    unwatch(id) {
      watchers.delete(id);
    },
    current: (accountId) => latest.get(accountId),
  };
}
