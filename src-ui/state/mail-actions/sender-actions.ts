/**
 * Manage senders (Settings → Manage senders): the list of senders by volume and the
 * unsubscribe, each one engine call; refusals become the catalogue's TernError for the page to
 * say. The bulk actions are thread commands over ListScope `sender` (thread-commands.ts
 * runOnScope: progress bar, confirmation, Undo for moves); block is rules-actions' blockSender.
 */
import type { UnsubscribeResult } from '../../../shared/api/unsubscribe';
import type { SenderSummary } from '../../../shared/senders';
import type { UiEngine } from '../engine-port';
import { asTernError as call, engineService } from './engine-call';

export interface SenderActions {
  listSenders(params: { accountIds: readonly string[] }): Promise<readonly SenderSummary[]>;
  unsubscribe(params: { accountId: string; messageId: string }): Promise<UnsubscribeResult>;
}

export function createSenderActions({ engine }: { engine: UiEngine }): SenderActions {
  const senders = () => engineService(engine, 'senders');
  return {
    listSenders: (params) => call(() => senders().list(params)),
    unsubscribe: (params) => call(() => senders().unsubscribe(params)),
  };
}
