/**
 * What a thread command does to each message, by the gateway's own rules
 * (src-server/actions/action-plan.ts, Gmail's): the optimistic change must be the change
 * the gateway will make, or the row would flip when the confirmation arrives. Unlike the
 * gateway this never refuses: a folder it does not know is the gateway's to judge, and
 * its refusal reverts the change with the catalogue error.
 */
import type { BulkAction, MailAction } from '../../shared/api/actions';
import type { MailCommand } from '../../shared/worker-mail-api';
import type { MessageEffect } from './outbox-rows';

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

/** The gateway request a command becomes. */
export function toBulkAction(command: MailCommand): BulkAction {
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
