/**
 * "Try this account's queue again later" for the engine's small senders (preferences,
 * contacts): after a network error while offline, once the browser is back online; after a
 * server error, on the shared backoff, doubling per failure until a pass succeeds. One wait
 * per account at a time: a second failure while one is scheduled adds nothing.
 */
import { systemClock, type Clock } from '../../shared/clock';
import { TernError } from '../../shared/errors';
import { isNetworkError, isRetryable } from './retry';
import { endsSession } from './session-ended';
import { SYNC_BACKOFF, backoffDelay } from '../net/backoff';
import type { MailTable } from '../db/mail-schema';
import type { LocalStore } from '../db/store';
import type { OnlineStatus } from '../net/online-status';

export interface RetryLater {
  /** Schedules `run(accountId)` after this failure. */
  after(accountId: string, error: unknown): Promise<void>;
  /**
   * A request of a pass failed: 'queued' when it is worth trying again (offline, a server
   * error: scheduled here) or the session ended (the account is being logged out); null when
   * the gateway refused it for good and the caller takes the change back.
   */
  failed(accountId: string, error: unknown): SendOutcome | null;
  /** A pass went through: the next failure starts the backoff over. */
  succeeded(accountId: string): void;
  stop(): void;
}

export function createRetryLater(deps: {
  readonly online: Pick<OnlineStatus, 'isOnline' | 'subscribe'>;
  readonly run: (accountId: string) => unknown;
  readonly clock?: Clock;
  readonly random?: () => number;
}): RetryLater {
  const clock = deps.clock ?? systemClock;
  const failures = new Map<string, number>();
  const timers = new Map<string, unknown>();
  const onlineWaits = new Map<string, () => void>();
  let stopped = false;

  const api: RetryLater = {
    failed(accountId, error) {
      const tern = asTernError(error);
      if (endsSession(tern)) return { kind: 'queued', error: tern };
      if (!isNetworkError(error) && !isRetryable(error)) return null;
      void api.after(accountId, error);
      return { kind: 'queued', error: tern };
    },
    async after(accountId, error) {
      if (stopped || timers.has(accountId) || onlineWaits.has(accountId)) return;
      if (isNetworkError(error) && !(await deps.online.isOnline({ force: true }))) {
        const stop = deps.online.subscribe((online) => {
          if (!online) return;
          onlineWaits.get(accountId)?.();
          onlineWaits.delete(accountId);
          void deps.run(accountId);
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
          void deps.run(accountId);
        }, backoffDelay(count, SYNC_BACKOFF, deps.random)),
      );
    },
    succeeded(accountId) {
      failures.delete(accountId);
    },
    stop() {
      stopped = true;
      for (const timer of timers.values()) clock.clearTimeout(timer);
      for (const stop of onlineWaits.values()) stop();
      timers.clear();
      onlineWaits.clear();
    },
  };
  return api;
}

/** What became of the changes a sender's pass found waiting. */
export type SendOutcome =
  | { readonly kind: 'confirmed' }
  /** Not on the gateway yet (offline, a server error): kept, and tried again later. */
  | { readonly kind: 'queued'; readonly error: TernError }
  /** Refused for good (FeatureNotInPlan, InvalidRequestData …): taken back on this device. */
  | { readonly kind: 'refused'; readonly error: TernError };

/** Any failure as a catalogue error (a bug's exception becomes InternalServerError). */
export const asTernError = (error: unknown): TernError => (error instanceof TernError ? error : new TernError('InternalServerError', { detail: { message: String(error) } }));

/**
 * Runs `pass(accountId)` one after another per account: a change made during a pass is sent
 * by the next, never beside it.
 */
export function serialByAccount(pass: (accountId: string) => Promise<SendOutcome>): (accountId: string) => Promise<SendOutcome> {
  const chains = new Map<string, Promise<SendOutcome>>();
  return (accountId) => {
    const previous = chains.get(accountId) ?? Promise.resolve<SendOutcome>({ kind: 'confirmed' });
    const next = previous.catch(() => undefined).then(() => pass(accountId));
    chains.set(accountId, next);
    void next.finally(() => chains.get(accountId) === next && chains.delete(accountId)).catch(() => undefined);
    return next;
  };
}

/** What a sender of one kind of waiting change (preferences, contacts) is built from. */
export interface QueueSenderDeps<Gateway> {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly gateway: (accountId: string) => Promise<Gateway>;
  readonly online: Pick<OnlineStatus, 'isOnline' | 'subscribe'>;
  readonly clock?: Clock;
  readonly random?: () => number;
  /** The cached state of the account changed (confirmed or taken back): tell the tabs. */
  readonly changed: (accountId: string) => void;
}
