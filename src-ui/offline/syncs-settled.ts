/**
 * When the service worker may install (sw-registration.ts): its install downloads every file
 * of the build (~130 requests, 1.7 MB) from the gateway, which, registered a second after
 * the page loaded, landed on a sign-in's first rows and first sync. It waits until an account
 * is signed in and every account's sync has caught up (or cannot go on: signed out), so the
 * gateway and the network serve the mail first. With no account there is nothing to open
 * offline yet; the first sign-in brings the install.
 *
 * Never while the engine knows the gateway is out of reach: the registration fetches /sw.js
 * and can only fail, and Chromium reports a failed registration as an error on the page's
 * console ("An unknown error occurred when fetching the script"). Counting "offline" as
 * settled registered the worker in the middle of an outage (the e2e files that stop the
 * gateway right after a sign-in, session-ended and offline-shell, saw that error in a loaded
 * CI run, where the first sync had not caught up before the gateway went away). An offline
 * account holds the install back until the gateway answers again.
 */
import type { SyncStatus } from '../../shared/worker-mail-api';

/** The engine knows this account cannot reach the gateway now (the page's offline banner). */
const unreachable = (status: SyncStatus): boolean => status.phase === 'offline' || status.online === false;

/** A sync that competes with nothing more and leaves the gateway reachable: caught up, or waiting for a sign-in. */
export function syncSettled(status: SyncStatus): boolean {
  if (unreachable(status)) return false;
  if (status.phase === 'signed-out' || status.phase === 'stopped') return true;
  return status.phase === 'idle' && status.appliedTransactionId > 0 && status.appliedTransactionId >= status.latestTxnId;
}

export interface SyncWatch {
  watchSync(onStatus: (status: SyncStatus) => void): Promise<{ subscriptionId: string }>;
  unwatchSync(params: { subscriptionId: string }): Promise<void>;
}

/**
 * Resolves once at least one account syncs and every account's sync has settled
 * (syncSettled), or, for a mailbox that never stops changing, once `latestMs` have passed
 * and no account is offline.
 */
export function syncsSettled(engine: SyncWatch, latestMs = Infinity): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const latest = new Map<string, SyncStatus>();
    let done = false;
    let late = false;
    let subscription: string | null = null;
    const finish = () => {
      done = true;
      clearTimeout(timer);
      if (subscription !== null) void engine.unwatchSync({ subscriptionId: subscription }).catch(() => undefined);
      resolve();
    };
    const check = () => {
      if (done) return;
      const all = [...latest.values()];
      if (late ? !all.some(unreachable) : all.length > 0 && all.every(syncSettled)) finish();
    };
    const timer = Number.isFinite(latestMs)
      ? setTimeout(() => {
          late = true;
          check();
        }, latestMs)
      : undefined;
    engine
      .watchSync((status) => {
        latest.set(status.accountId, status);
        check();
      })
      .then(({ subscriptionId }) => {
        subscription = subscriptionId;
        if (done) void engine.unwatchSync({ subscriptionId }).catch(() => undefined);
      }, (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      });
  });
}
