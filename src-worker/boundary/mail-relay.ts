/**
 * Where there is no SharedWorker every tab runs its own engine and only the elected writer
 * syncs and sends (boundary/writer-election.ts). The engines share IndexedDB but not
 * memory: this relays, over a BroadcastChannel, what the others must hear — mail rows
 * changed (their live lists re-read), command outcomes (their tabs show them) and "a
 * command was recorded" (the writer's outbox sends it). With one SharedWorker engine
 * nothing listens and nothing is lost.
 */
import type { CommandStatus } from '../../shared/worker-mail-api';
import type { BroadcastPort } from '../db/account-databases';
import type { CommandStatusFeed } from '../outbox/command-status-feed';
import type { ChangeFeed, MailChange } from '../mail-store/change-feed';

export const MAIL_CHANNEL = 'tern-mail';

type RelayMessage =
  | { readonly type: 'mail-change'; readonly from: string; readonly change: MailChange }
  | { readonly type: 'command-status'; readonly from: string; readonly status: CommandStatus }
  | { readonly type: 'outbox-kick'; readonly from: string; readonly accountId: string };

function isRelayMessage(value: unknown): value is RelayMessage {
  const record = value as Partial<RelayMessage> | null;
  if (typeof record !== 'object' || record === null || typeof record.from !== 'string') return false;
  return record.type === 'mail-change' || record.type === 'command-status' || record.type === 'outbox-kick';
}

export interface MailRelay {
  /** Tells the other engines a command was recorded (their writer sends it). */
  kick(accountId: string): void;
}

export function createMailRelay(deps: {
  channel: BroadcastPort;
  engineId: string;
  changes: ChangeFeed;
  statuses: CommandStatusFeed;
  /** This engine's outbox for the account, if it runs one. */
  kickLocal: (accountId: string) => void;
}): MailRelay {
  const { channel, engineId } = deps;
  let relaying = false;
  const post = (message: RelayMessage) => {
    if (!relaying) channel.postMessage(message);
  };
  deps.changes.subscribe((change) => {
    // The rows a page wrote stay here: copying a thousand of them to engines that listen
    // nowhere (the SharedWorker case) costs more than their search indexes reading them.
    // The few Contact rows a page ranked go along: the others' suggestion indexes take them.
    const { messages: _rows, ...relayed } = change;
    post({ type: 'mail-change', from: engineId, change: relayed });
  });
  deps.statuses.subscribe((status) => post({ type: 'command-status', from: engineId, status }));
  channel.addEventListener('message', (event) => {
    const message: unknown = event.data;
    if (!isRelayMessage(message) || message.from === engineId) return;
    relaying = true;
    try {
      if (message.type === 'mail-change') deps.changes.emit(message.change);
      else if (message.type === 'command-status') deps.statuses.publish(message.status);
      else deps.kickLocal(message.accountId);
    } finally {
      relaying = false;
    }
  });
  return { kick: (accountId) => post({ type: 'outbox-kick', from: engineId, accountId }) };
}
