/**
 * Sends an account's pending preference changes to the gateway and settles them.
 *
 * Why not a row in the mail outbox (outbox/outbox-sender.ts): preferences are choices, the
 * newest one per key wins, so what is owed is ONE merged patch per account (settings-rows.ts
 * `pending`), not an ordered list of commands; the outbox's ordering, idempotency keys and
 * draft recoveries would only get in the way. What it shares with the outbox is what
 * matters for "works offline and is retried": the change is stored before it is sent, in
 * the same database, and sent again after a kill, on reconnect (net/online-status.ts) and
 * on the shared backoff (net/backoff.ts).
 */
import { systemClock, type Clock } from '../../shared/clock';
import { TernError } from '../../shared/errors';
import type { PreferencePatch } from '../../shared/preferences';
import { isNetworkError, isRetryable } from '../api/retry';
import { endsSession } from '../api/session-ended';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../db/store';
import { SYNC_BACKOFF, backoffDelay } from '../net/backoff';
import type { OnlineStatus } from '../net/online-status';
import type { SettingsGateway } from './settings-gateway';
import { readCachedPreferences, settlePending, SETTINGS_TABLES, writeServerPreferences } from '../mail-store/settings-rows';

/** What became of the changes pending when a pass began. */
export type SendOutcome =
  | { readonly kind: 'confirmed' }
  /** Not on the gateway yet (offline, a server error): kept, and tried again later. */
  | { readonly kind: 'queued'; readonly error: TernError }
  /** Refused for good (FeatureNotInPlan, InvalidRequestData): taken back on this device. */
  | { readonly kind: 'refused'; readonly error: TernError };

export interface PreferenceSenderDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly gateway: (accountId: string) => Promise<SettingsGateway>;
  readonly online: Pick<OnlineStatus, 'isOnline' | 'subscribe'>;
  readonly clock?: Clock;
  readonly random?: () => number;
  /** The cached settings of the account changed (confirmed or taken back): tell the tabs. */
  readonly changed: (accountId: string) => void;
  /** A change the gateway refused for good was taken back. */
  readonly refused?: (accountId: string, error: TernError) => void;
}

export interface PreferenceSender {
  /** Sends what is pending for the account (one pass at a time per account). */
  send(accountId: string): Promise<SendOutcome>;
  stop(): void;
}

const asTern = (error: unknown) => (error instanceof TernError ? error : new TernError('InternalServerError', { detail: { message: String(error) } }));

export function createPreferenceSender(deps: PreferenceSenderDeps): PreferenceSender {
  const clock = deps.clock ?? systemClock;
  const chains = new Map<string, Promise<SendOutcome>>();
  const failures = new Map<string, number>();
  const timers = new Map<string, unknown>();
  const onlineWaits = new Map<string, () => void>();
  let stopped = false;

  const later = async (accountId: string, error: unknown) => {
    if (stopped || timers.has(accountId) || onlineWaits.has(accountId)) return;
    if (isNetworkError(error) && !(await deps.online.isOnline({ force: true }))) {
      const stop = deps.online.subscribe((online) => {
        if (!online) return;
        onlineWaits.get(accountId)?.();
        onlineWaits.delete(accountId);
        void send(accountId);
      });
      onlineWaits.set(accountId, stop);
      return;
    }
    const count = (failures.get(accountId) ?? 0) + 1;
    failures.set(accountId, count);
    timers.set(
      accountId,
      clock.setTimeout(() => {
        timers.delete(accountId);
        void send(accountId);
      }, backoffDelay(count, SYNC_BACKOFF, deps.random)),
    );
  };

  const pass = async (accountId: string): Promise<SendOutcome> => {
    const store = await deps.open(accountId);
    const { pending } = await withRead(store, SETTINGS_TABLES, readCachedPreferences);
    if (!pending) return { kind: 'confirmed' };
    const sent: PreferencePatch = pending;
    let doc;
    try {
      doc = await (await deps.gateway(accountId)).patchPreferences(sent);
    } catch (error) {
      const tern = asTern(error);
      // The session is over: the account is logged out (and its database with it).
      if (endsSession(tern)) return { kind: 'queued', error: tern };
      if (isNetworkError(error) || isRetryable(error)) {
        void later(accountId, error);
        return { kind: 'queued', error: tern };
      }
      await withWrite(store, SETTINGS_TABLES, (tx) => settlePending(tx, sent));
      deps.changed(accountId);
      deps.refused?.(accountId, tern);
      return { kind: 'refused', error: tern };
    }
    await withWrite(store, SETTINGS_TABLES, async (tx) => {
      await writeServerPreferences(tx, doc);
      await settlePending(tx, sent);
    });
    failures.delete(accountId);
    deps.changed(accountId);
    return { kind: 'confirmed' };
  };

  const send = (accountId: string): Promise<SendOutcome> => {
    if (stopped) return Promise.resolve({ kind: 'queued', error: new TernError('OperationFailed', { detail: { stopped: true } }) });
    const previous = chains.get(accountId) ?? Promise.resolve<SendOutcome>({ kind: 'confirmed' });
    // One pass after another: a change made during a pass is sent by the next, never beside it.
    const next = previous.catch(() => undefined).then(() => pass(accountId));
    chains.set(accountId, next);
    void next.finally(() => chains.get(accountId) === next && chains.delete(accountId)).catch(() => undefined);
    return next;
  };

  return {
    send,
    stop() {
      stopped = true;
      for (const timer of timers.values()) clock.clearTimeout(timer);
      for (const stop of onlineWaits.values()) stop();
      timers.clear();
      onlineWaits.clear();
    },
  };
}
