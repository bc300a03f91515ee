/**
 * One POST of a batch (spec §7) and what it means for the queue: sent events go; after a
 * failure they go too, unless we were offline or the server had a 5xx (kept, retried);
 * a 401 InvalidToken means the account's session is over.
 */
import { ANALYTICS_LIMITS } from '../../shared/constants';
import type { AnalyticsEventRecord } from '../../shared/analytics-events';
import type { AddEventsBody } from '../../shared/api/analytics';

export type SendOutcome = 'sent' | 'retry' | 'drop' | 'logout';

/** Where a queue's batches go and with which headers. */
export interface BatchTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface TransportDeps {
  readonly fetch: typeof fetch;
  /** False when the browser says it is offline; then nothing is tried. */
  readonly isOnline: () => boolean;
}

export async function postBatch(deps: TransportDeps, target: BatchTarget, events: readonly AnalyticsEventRecord[]): Promise<SendOutcome> {
  if (events.length > ANALYTICS_LIMITS.batchSize) throw new RangeError(`At most ${ANALYTICS_LIMITS.batchSize} events per batch.`);
  if (!deps.isOnline()) return 'retry';
  const body: Omit<AddEventsBody, 'events'> & { events: readonly AnalyticsEventRecord[] } = { events, product: 'email', type: 'flock_account' };
  let response: Response;
  try {
    response = await deps.fetch(target.url, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return 'retry'; // offline, or the connection dropped
  }
  // The success body is not read (spec §7); errors are, to tell InvalidToken apart.
  if (response.ok) return 'sent';
  if (response.status >= 500) return 'retry';
  if (response.status === 401) {
    const reply = (await response.json().catch(() => null)) as { error?: unknown } | null;
    if (reply?.error === 'InvalidToken') return 'logout';
  }
  return 'drop';
}
