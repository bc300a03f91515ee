import type { AnalyticsEventRecord } from '../../shared/analytics-events';
import type { SqlStore } from '../store/sql';

// A queue retries a batch after a 5xx or a dropped connection: storing by event_id keeps one copy.
const INSERT = `INSERT INTO analytics_events (account_id, entity_id, event_id, event_name, event_ts, attrs, hattrs, client, received_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`;
const COLUMNS = 'event_name AS "eventName", event_id AS "eventId", entity_id AS "entityId"';
const OF_ACCOUNT = `SELECT ${COLUMNS} FROM analytics_events WHERE account_id = ? ORDER BY id`;
const PRE_LOGIN = `SELECT ${COLUMNS} FROM analytics_events WHERE account_id IS NULL ORDER BY id`;

/** Where the gateway keeps the analytics events the worker's queues send (spec §7). */
export class AnalyticsStore {
  constructor(private readonly store: SqlStore) {}

  /** Stores one batch atomically; returns how many events were new. */
  save(params: { accountId: number | null; client: string | null; events: readonly AnalyticsEventRecord[] }): Promise<number> {
    const receivedAt = Date.now();
    return this.store.transaction(async (tx) => {
      let stored = 0;
      for (const event of params.events) {
        const { changes } = await tx.run(INSERT, [
          params.accountId,
          event.entityId ?? null,
          event.attrs.event_id,
          event.eventName,
          event.eventTs,
          JSON.stringify(event.attrs),
          JSON.stringify(event.hattrs),
          params.client,
          receivedAt,
        ]);
        stored += changes;
      }
      return stored;
    });
  }

  /** Events of an account (null: pre-login), oldest first. */
  list(accountId: number | null): Promise<{ eventName: string; eventId: string; entityId: string | null }[]> {
    return accountId === null ? this.store.all(PRE_LOGIN) : this.store.all(OF_ACCOUNT, [accountId]);
  }
}
