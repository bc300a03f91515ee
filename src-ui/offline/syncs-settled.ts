/**
 * When the service worker may install (sw-registration.ts): its install downloads every file
 * of the build (~130 requests, 1.7 MB) from the gateway, which, registered a second after
 * the page loaded, landed on a sign-in's first rows and first sync. It waits until an account
 * is signed in and every account's sync has caught up (or cannot go on: offline, signed out),
 * so the gateway and the network serve the mail first. With no account there is nothing to
 * open offline yet; the first sign-in brings the install.
 */
import type { SyncStatus } from '../../shared/worker-mail-api';

/** A sync that competes with nothing more: caught up, or waiting for the network or a sign-in. */
export function syncSettled(status: SyncStatus): boolean {
  if (status.phase === 'offline' || status.phase === 'signed-out' || status.phase === 'stopped') return true;
  return status.phase === 'idle' && status.appliedTransactionId > 0 && status.appliedTransactionId >= status.latestTxnId;
}

export interface SyncWatch {
  watchSync(onStatus: (status: SyncStatus) => void): Promise<{ subscriptionId: string }>;
  unwatchSync(params: { subscriptionId: string }): Promise<void>;
}

/** Resolves once at least one account syncs and every account's sync has settled (syncSettled). */
export function syncsSettled(engine: SyncWatch): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const latest = new Map<string, SyncStatus>();
    let done = false;
    let subscription: string | null = null;
    const finish = () => {
      done = true;
      if (subscription !== null) void engine.unwatchSync({ subscriptionId: subscription }).catch(() => undefined);
      resolve();
    };
    engine
      .watchSync((status) => {
        if (done) return;
        latest.set(status.accountId, status);
        if ([...latest.values()].every(syncSettled)) finish();
      })
      .then(({ subscriptionId }) => {
        subscription = subscriptionId;
        if (done) void engine.unwatchSync({ subscriptionId }).catch(() => undefined);
      }, reject);
  });
}
