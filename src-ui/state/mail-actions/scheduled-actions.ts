/**
 * The Scheduled list (issue 15 point 1): the sends the gateway keeps until their time, read
 * from the engine (which has them from delta's `scheduled` document), and taken back to a
 * draft. Refusals become the catalogue's TernError (SendAlreadyLeft once it went).
 */
import { TernError } from '../../../shared/errors';
import type { PendingSendView } from '../../../shared/worker-mail-api';
import type { UiEngine } from '../engine-port';
import { engineSubscription } from './engine-subscription';

export interface ScheduledActions {
  /** The accounts' scheduled and held sends, soonest first. */
  pendingSends(accountIds: readonly string[]): Promise<readonly PendingSendView[]>;
  /** Hears which account's list changed (any device); returns the unsubscribe. */
  watchPendingSends(onChange: (accountId: string) => void): () => void;
  /** Back to a draft (in Drafts again): the draft's id to open, or null. */
  cancelScheduled(send: Pick<PendingSendView, 'accountId' | 'outboxId'>): Promise<{ draftId: string | null }>;
}

export function createScheduledActions(params: { engine: UiEngine }): ScheduledActions {
  const { engine } = params;
  return {
    pendingSends: (accountIds) => engine.commands.pendingSends({ accountIds }),
    watchPendingSends: (onChange) => engineSubscription(() => engine.commands.watchPendingSends(onChange), (params) => engine.commands.unwatchPendingSends(params)),
    async cancelScheduled({ accountId, outboxId }) {
      try {
        return await engine.commands.cancelScheduled({ accountId, outboxId });
      } catch (error) {
        throw TernError.from(error);
      }
    },
  };
}
