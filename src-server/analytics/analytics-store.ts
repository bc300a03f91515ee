import type { AnalyticsEventRecord } from '../../shared/analytics-events';
import type { Db } from '../store/database';

/** Where the gateway keeps the analytics events the worker's queues send (spec §7). */
export class AnalyticsStore {
  private readonly insert;

  constructor(private readonly db: Db) {
    // A queue retries a batch after a 5xx or a dropped connection: storing by event_id keeps one copy.
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO analytics_events (account_id, entity_id, event_id, event_name, event_ts, attrs, hattrs, client, received_at)
       VALUES (@accountId, @entityId, @eventId, @eventName, @eventTs, @attrs, @hattrs, @client, @receivedAt)`,
    );
  }

  /** Stores one batch atomically; returns how many events were new. */
  save(params: { accountId: number | null; client: string | null; events: readonly AnalyticsEventRecord[] }): number {
    const receivedAt = Date.now();
    return this.db.transaction(() => {
      let stored = 0;
      for (const event of params.events) {
        stored += this.insert.run({
          accountId: params.accountId,
          entityId: event.entityId ?? null,
          eventId: event.attrs.event_id,
          eventName: event.eventName,
          eventTs: event.eventTs,
          attrs: JSON.stringify(event.attrs),
          hattrs: JSON.stringify(event.hattrs),
          client: params.client,
          receivedAt,
        }).changes;
      }
      return stored;
    })();
  }

  /** Events of an account (null: pre-login), oldest first. */
  list(accountId: number | null): { eventName: string; eventId: string; entityId: string | null }[] {
    const where = accountId === null ? 'account_id IS NULL' : 'account_id = ?';
    return this.db
      .prepare(`SELECT event_name AS eventName, event_id AS eventId, entity_id AS entityId FROM analytics_events WHERE ${where} ORDER BY id`)
      .all(...(accountId === null ? [] : [accountId])) as { eventName: string; eventId: string; entityId: string | null }[];
  }
}
