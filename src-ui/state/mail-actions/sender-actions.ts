/**
 * Manage senders (Settings → Manage senders): the list of senders by volume and the
 * unsubscribe, each one engine call; refusals become the catalogue's TernError for the page to
 * say. The bulk actions are thread commands over ListScope `sender` (thread-commands.ts
 * runOnScope: progress bar, confirmation, Undo for moves); block is rules-actions' blockSender.
 */
import type { UnsubscribeResult } from '../../../shared/api/unsubscribe';
import { TernError } from '../../../shared/errors';
import type { SenderSummary } from '../../../shared/senders';
import type { UiEngine } from '../engine-port';

export interface SenderActions {
  listSenders(params: { accountIds: readonly string[] }): Promise<readonly SenderSummary[]>;
  unsubscribe(params: { accountId: string; messageId: string }): Promise<UnsubscribeResult>;
}

export function createSenderActions({ engine }: { engine: UiEngine }): SenderActions {
  const senders = () => {
    if (!engine.senders) throw new TernError('ServiceNotFound');
    return engine.senders;
  };
  const call = async <T,>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw TernError.from(error);
    }
  };
  return {
    listSenders: (params) => call(() => senders().list(params)),
    unsubscribe: (params) => call(() => senders().unsubscribe(params)),
  };
}
