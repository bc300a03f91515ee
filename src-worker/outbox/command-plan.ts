/**
 * What a thread command does to each message, by the gateway's own rules
 * (src-server/actions/action-plan.ts, Gmail's): the optimistic change must be the change
 * the gateway will make, or the row would flip when the confirmation arrives. Unlike the
 * gateway this never refuses: a folder it does not know is the gateway's to judge, and
 * its refusal reverts the change with the catalogue error.
 */
import { MAX_BULK_IDS, type BulkAction } from '../../shared/api/actions';
import { toBulkAction, type MessageEffect, type PlanMessage } from '../../shared/command-effects';
import type { MailCommand, MessagePlacement } from '../../shared/worker-mail-api';

/** One gateway request: a bulk action on threads or on messages. */
export interface GatewayRequest {
  readonly scope: 'threads' | 'messages';
  readonly action: BulkAction;
}

/**
 * The requests a command becomes, in order. A thread command is one request; a restore
 * is one move of messages per folder they go back to (at most MAX_BULK_IDS each). Every
 * one is an idempotent "set", so a replay after a kill repeats them harmlessly.
 */
export function gatewayRequests(command: MailCommand): GatewayRequest[] {
  if (command.kind !== 'restore') return [{ scope: 'threads', action: toBulkAction(command) }];
  const byFolder = new Map<string, string[]>();
  for (const { messageId, folderId } of command.placements) byFolder.set(folderId, [...(byFolder.get(folderId) ?? []), messageId]);
  const requests: GatewayRequest[] = [];
  for (const [folderId, ids] of byFolder) {
    for (let start = 0; start < ids.length; start += MAX_BULK_IDS) requests.push({ scope: 'messages', action: { ids: ids.slice(start, start + MAX_BULK_IDS), action: 'move', folderId } });
  }
  return requests;
}

/**
 * The command that undoes `command`, from its planned effects and where each message was
 * before them: every message it moves goes back to its own folder (a thread archived from
 * the inbox with a reply in Sent gets only the inbox message back; one of a unified list
 * goes back to its own account's folder, as commands are per account). None for changes
 * that are not moves (read, star: the row shows them and they are toggled again), for
 * "delete forever" (nothing to put back) and when nothing moved.
 */
export function inverseOf(command: MailCommand, effects: Readonly<Record<string, MessageEffect>>, before: ReadonlyMap<string, PlanMessage & { readonly threadId: string }>): MailCommand | undefined {
  if (command.kind === 'markRead' || command.kind === 'star') return undefined;
  const placements: MessagePlacement[] = [];
  const threadIds = new Set<string>();
  for (const [messageId, effect] of Object.entries(effects)) {
    if (effect.deleted) return undefined;
    const was = before.get(messageId);
    if (effect.folderId === undefined || !was || was.folderId === effect.folderId) continue;
    placements.push({ messageId, folderId: was.folderId });
    threadIds.add(was.threadId);
  }
  if (placements.length === 0) return undefined;
  return { kind: 'restore', accountId: command.accountId, threadIds: [...threadIds], placements };
}
