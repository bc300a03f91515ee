/**
 * What a command does to a row: the one rule set the engine's optimistic write
 * (src-worker/outbox/action-store.ts, mail-store/mail-writer.ts) and the tab's overlay
 * (src-ui/state/thread-list/local-edits.ts) both follow, by the gateway's own rules
 * (src-server/actions/action-plan.ts, Gmail's): the optimistic change must be the change
 * the gateway will make, or the row would flip when the confirmation arrives. Unlike the
 * gateway this never refuses: a folder it does not know is the gateway's to judge, and
 * its refusal reverts the change with the catalogue error.
 */
import type { BulkAction, MailAction } from './api/actions';
import type { MailCommand, ThreadRow } from './worker-mail-api';

/** What a command does to one message (absent: unchanged). */
export interface MessageEffect {
  readonly unread?: boolean;
  readonly starred?: boolean;
  readonly folderId?: string;
  /** "Delete forever" from Trash or Junk. */
  readonly deleted?: true;
  /** A label's keyword given (`on`) or taken away. */
  readonly keyword?: { readonly keyword: string; readonly on: boolean };
}

export type ThreadCommand = Exclude<MailCommand, { kind: 'restore' }>;
export type RestoreCommand = Extract<MailCommand, { kind: 'restore' }>;

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
    case 'label':
      return { ids, action: command.add ? 'label' : 'unlabel', keyword: command.keyword };
    default:
      return { ids, action: command.kind satisfies MailAction };
  }
}

/** messageId → effect for every message the command changes. */
export function commandEffects(command: MailCommand, threads: ReadonlyMap<string, readonly PlanMessage[]>, folders: PlanFolders): Record<string, MessageEffect> {
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
    case 'label':
    case 'unlabel':
      return bulk.keyword === undefined ? [] : set({ keyword: { keyword: bulk.keyword, on: bulk.action === 'label' } });
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

/** A message with the effects laid over it, oldest first; `deleted` once one deletes it for good. */
export function applyEffects<M extends { readonly unread: boolean; readonly starred: boolean; readonly folderId: string; readonly keywords?: readonly string[] }>(message: M, effects: readonly MessageEffect[]): { meta: M; deleted: boolean } {
  let meta = message;
  let deleted = false;
  for (const effect of effects) {
    meta = {
      ...meta,
      ...(effect.unread !== undefined ? { unread: effect.unread } : {}),
      ...(effect.starred !== undefined ? { starred: effect.starred } : {}),
      ...(effect.folderId !== undefined ? { folderId: effect.folderId } : {}),
      ...(effect.keyword !== undefined ? { keywords: withKeyword(meta.keywords ?? [], effect.keyword) } : {}),
    };
    if (effect.deleted) deleted = true;
  }
  return { meta, deleted };
}

/** A message's keywords with one given or taken away (IMAP keywords match case-insensitively). */
export function withKeyword(keywords: readonly string[], change: { readonly keyword: string; readonly on: boolean }): string[] {
  const rest = keywords.filter((keyword) => keyword.toLowerCase() !== change.keyword.toLowerCase());
  return change.on ? [...rest, change.keyword] : rest;
}

/** No folder known: the flag rules only (a tab's list row does not know its messages' folders). */
const NO_FOLDERS: PlanFolders = { ids: {}, roleOf: () => null };

/**
 * What a command does to a thread row whose messages are not known (a tab's list row): the
 * same rules, with the row standing for its latest message. Only the flags are shown this
 * way; where a row goes is the list's to say. Null when the command changes no flag.
 */
export function threadRowEffect(command: MailCommand): Pick<MessageEffect, 'unread' | 'starred'> | null {
  if (command.kind !== 'markRead' && command.kind !== 'star') return null;
  const row = '';
  const effect = commandEffects(command, new Map([[row, [{ id: row, folderId: '', date: 0 }]]]), NO_FOLDERS)[row];
  if (!effect) return null;
  return { ...(effect.unread !== undefined ? { unread: effect.unread } : {}), ...(effect.starred !== undefined ? { starred: effect.starred } : {}) };
}

/** Whether a row already shows a flag effect. */
export function rowShowsEffect(row: Pick<ThreadRow, 'unreadCount' | 'starred'>, effect: Pick<MessageEffect, 'unread' | 'starred'>): boolean {
  return (effect.unread === undefined || row.unreadCount > 0 === effect.unread) && (effect.starred === undefined || row.starred === effect.starred);
}

/** A thread row with a flag effect laid over it: unread makes at least one message unread, read none. */
export function rowWithEffect<R extends Pick<ThreadRow, 'unreadCount' | 'starred'>>(row: R, effect: Pick<MessageEffect, 'unread' | 'starred'>): R {
  return {
    ...row,
    unreadCount: effect.unread === undefined ? row.unreadCount : effect.unread ? Math.max(1, row.unreadCount) : 0,
    starred: effect.starred ?? row.starred,
  };
}
