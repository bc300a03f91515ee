/**
 * What a thread command does to each message, by the gateway's own rules
 * (src-server/actions/action-plan.ts, Gmail's): the optimistic change must be the change
 * the gateway will make, or the row would flip when the confirmation arrives. Unlike the
 * gateway this never refuses: a folder it does not know is the gateway's to judge, and
 * its refusal reverts the change with the catalogue error.
 */
import { MAX_BULK_IDS, type BulkAction, type MailAction } from '../../shared/api/actions';
import type { MailCommand, MessagePlacement } from '../../shared/worker-mail-api';
import type { MessageEffect } from '../mail-store/outbox-rows';

type ThreadCommand = Exclude<MailCommand, { kind: 'restore' }>;
type RestoreCommand = Extract<MailCommand, { kind: 'restore' }>;

export type FolderRole = 'inbox' | 'drafts' | 'sent' | 'archive' | 'junk' | 'trash';

/** A message of a thread the command names, as stored locally (visible state). */
export interface PlanMessage {
  readonly id: string;
  readonly folderId: string;
  readonly date: number;
}

export interface PlanFolders {
  readonly ids: Partial<Record<FolderRole, string>>;
  roleOf(folderId: string): FolderRole | null;
}

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

/** The gateway request a thread command becomes. */
export function toBulkAction(command: ThreadCommand): BulkAction {
  const ids = [...command.threadIds];
  switch (command.kind) {
    case 'markRead':
      return { ids, action: command.read ? 'read' : 'unread' };
    case 'star':
      return { ids, action: command.starred ? 'star' : 'unstar' };
    case 'move':
      return { ids, action: 'move', folderId: command.folderId };
    default:
      return { ids, action: command.kind satisfies MailAction };
  }
}

/** messageId → effect for every message the command changes. */
export function planEffects(command: MailCommand, threads: ReadonlyMap<string, readonly PlanMessage[]>, folders: PlanFolders): Record<string, MessageEffect> {
  if (command.kind === 'restore') return restoreEffects(command, threads);
  const effects: Record<string, MessageEffect> = {};
  const bulk = toBulkAction(command);
  for (const group of threads.values()) {
    for (const [id, effect] of effectsFor(bulk, group, folders)) effects[id] = effect;
  }
  return effects;
}

function effectsFor(bulk: BulkAction, group: readonly PlanMessage[], folders: PlanFolders): [string, MessageEffect][] {
  const role = (message: PlanMessage) => folders.roleOf(message.folderId);
  const notIn = (...roles: FolderRole[]) => (message: PlanMessage) => !roles.includes(role(message) as FolderRole);
  const set = (effect: MessageEffect, picked: readonly PlanMessage[] = group): [string, MessageEffect][] => picked.map((message) => [message.id, effect]);
  const moveTo = (folderId: string | undefined, picked: readonly PlanMessage[]) =>
    folderId === undefined ? [] : set({ folderId }, picked.filter((message) => message.folderId !== folderId));
  const trash = () => moveTo(folders.ids.trash, group.filter(notIn('drafts')));
  const spam = () => moveTo(folders.ids.junk, group.filter(notIn('sent', 'drafts', 'trash')));

  switch (bulk.action) {
    case 'read':
      return set({ unread: false });
    case 'unread': {
      const received = group.filter(notIn('sent', 'drafts'));
      return set({ unread: true }, received.length > 0 ? received : group);
    }
    case 'star': {
      const candidates = group.filter(notIn('drafts'));
      const latest = [...(candidates.length > 0 ? candidates : group)].sort((a, b) => b.date - a.date || Number(b.id) - Number(a.id))[0];
      return latest ? set({ starred: true }, [latest]) : [];
    }
    case 'unstar':
      return set({ starred: false });
    case 'archive': {
      const inInbox = group.filter((message) => role(message) === 'inbox');
      return moveTo(folders.ids.archive, inInbox.length > 0 ? inInbox : group.filter(notIn('sent', 'drafts', 'trash', 'junk')));
    }
    case 'trash':
      return trash();
    case 'spam':
      return spam();
    case 'notspam':
      return moveTo(folders.ids.inbox, group.filter((message) => role(message) === 'junk'));
    case 'move': {
      const target = bulk.folderId;
      const targetRole = target === undefined ? null : folders.roleOf(target);
      if (targetRole === 'trash') return trash();
      if (targetRole === 'junk') return spam();
      return moveTo(target, group.filter(notIn('sent', 'drafts')));
    }
    case 'delete': {
      const disposable = group.filter((message) => role(message) === 'trash' || role(message) === 'junk');
      return disposable.length > 0 ? set({ deleted: true }, disposable) : trash();
    }
  }
}

/** A restore moves each named message that is elsewhere now back to its folder; messages gone since are left alone. */
function restoreEffects(command: RestoreCommand, threads: ReadonlyMap<string, readonly PlanMessage[]>): Record<string, MessageEffect> {
  const where = new Map([...threads.values()].flat().map((message) => [message.id, message.folderId]));
  const effects: Record<string, MessageEffect> = {};
  for (const { messageId, folderId } of command.placements) {
    const now = where.get(messageId);
    if (now !== undefined && now !== folderId) effects[messageId] = { folderId };
  }
  return effects;
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
