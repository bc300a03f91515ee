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
import { TernError } from '../../shared/errors';
import type { PreferencePatch } from '../../shared/preferences';
import { asTernError, createRetryLater, serialByAccount, type QueueSenderDeps, type SendOutcome } from '../api/retry-later';
import { withRead, withWrite } from '../db/store';
import type { SettingsGateway } from './settings-gateway';
import { readCachedPreferences, settlePending, SETTINGS_TABLES, writeServerPreferences } from '../mail-store/settings-rows';

export type { SendOutcome };

export interface PreferenceSenderDeps extends QueueSenderDeps<SettingsGateway> {
  /** A change the gateway refused for good was taken back. */
  readonly refused?: (accountId: string, error: TernError) => void;
}

export interface PreferenceSender {
  /** Sends what is pending for the account (one pass at a time per account). */
  send(accountId: string): Promise<SendOutcome>;
  stop(): void;
}

export function createPreferenceSender(deps: PreferenceSenderDeps): PreferenceSender {
  let stopped = false;
  const retry = createRetryLater({ online: deps.online, run: (accountId) => send(accountId), ...(deps.clock ? { clock: deps.clock } : {}), ...(deps.random ? { random: deps.random } : {}) });

  const pass = async (accountId: string): Promise<SendOutcome> => {
    const store = await deps.open(accountId);
    const { pending } = await withRead(store, SETTINGS_TABLES, readCachedPreferences);
    if (!pending) return { kind: 'confirmed' };
    const sent: PreferencePatch = pending;
    let doc;
    try {
      doc = await (await deps.gateway(accountId)).patchPreferences(sent);
    } catch (error) {
      // Offline or a server error: tried again later; the session over: the account is being logged out.
      const queued = retry.failed(accountId, error);
      if (queued) return queued;
      const tern = asTernError(error);
      await withWrite(store, SETTINGS_TABLES, (tx) => settlePending(tx, sent));
      deps.changed(accountId);
      deps.refused?.(accountId, tern);
      return { kind: 'refused', error: tern };
    }
    await withWrite(store, SETTINGS_TABLES, async (tx) => {
      await writeServerPreferences(tx, doc);
      await settlePending(tx, sent);
    });
    retry.succeeded(accountId);
    deps.changed(accountId);
    return { kind: 'confirmed' };
  };

  const serial = serialByAccount(pass);
  const send = (accountId: string): Promise<SendOutcome> =>
    stopped ? Promise.resolve({ kind: 'queued', error: new TernError('OperationFailed', { detail: { stopped: true } }) }) : serial(accountId);

  return {
    send,
    stop() {
      stopped = true;
      retry.stop();
    },
  };
}
