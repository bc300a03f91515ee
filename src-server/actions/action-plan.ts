import type { MailAction } from '../../shared/api/actions';
import { TernError } from '../../shared/errors';
import type { FolderRole } from './folder-roles';

/** A mirrored message an action may touch. */
export interface TargetMessage {
  readonly id: number;
  readonly folderId: number;
  readonly uid: number;
  readonly threadId: number;
  /** Date header, epoch ms: "the latest message" of a thread. */
  readonly date: number;
}

/** The account's special folders by id, and the role of any folder id. */
export interface PlanFolders {
  readonly ids: Partial<Record<FolderRole, number>>;
  roleOf(folderId: number): FolderRole | null;
}

export type Intent =
  | { readonly kind: 'flags'; readonly add: readonly string[]; readonly remove: readonly string[] }
  | { readonly kind: 'move'; readonly toFolderId: number }
  /** Permanent delete: only ever planned for messages in Trash or Junk. */
  | { readonly kind: 'expunge' };

/** One IMAP command's worth: an intent for some messages of one folder. */
export interface FolderOp {
  readonly folderId: number;
  readonly intent: Intent;
  readonly messages: readonly TargetMessage[];
}

export interface PlanParams {
  /** Message actions touch exactly the messages named; thread actions pick from each thread (below). */
  readonly scope: 'messages' | 'threads';
  readonly action: MailAction;
  /** The named messages, or every message of the named threads. */
  readonly messages: readonly TargetMessage[];
  readonly folders: PlanFolders;
  /** The destination of `move`, known to exist. */
  readonly targetFolderId?: number;
  /** The label's keyword of `label` / `unlabel`, known to be one of the account's labels. */
  readonly keyword?: string;
}

type Step = { readonly message: TargetMessage; readonly intent: Intent };

const SEEN = '\\Seen';
const FLAGGED = '\\Flagged';
const flags = (add: string[], remove: string[]): Intent => ({ kind: 'flags', add, remove });

/**
 * Turns an action into IMAP work, per folder. What a thread action touches follows Gmail,
 * where an action on a conversation means what the person sees in the list:
 *
 * - read, unstar: every message. unread: the messages others sent (your own replies in Sent
 *   were never "unread"). star: only the latest message, as Gmail stars one message and
 *   shows the conversation starred.
 * - archive: the messages in INBOX (Gmail's archive only takes the Inbox label away; your
 *   other folders keep theirs). A thread with nothing in INBOX (archived from a folder view)
 *   moves out of its folders instead, never out of Sent, Drafts, Trash or Junk.
 * - trash: everything except Drafts (unsent work is discarded explicitly): your sent replies
 *   go too, as Gmail takes a deleted conversation out of Sent as well.
 * - spam: the messages you received: your own messages are not spam, and Sent keeps them.
 * - move: everything except Sent and Drafts copies (a folder is a label here; Sent stays
 *   complete). Moving to Trash or Junk is trash or spam.
 * - notspam: whatever is in Junk goes to INBOX.
 * - label, unlabel: every message, your replies too, so the label follows the whole
 *   conversation wherever its messages are (IMAP keywords are per message).
 * - delete: never destroys mail outside Trash and Junk. There it is "delete forever"; a
 *   message elsewhere (or a thread with nothing in Trash/Junk) goes to Trash.
 */
export function planAction(params: PlanParams): FolderOp[] {
  const groups = params.scope === 'messages' ? params.messages.map((message) => [message]) : [...byThread(params.messages).values()];
  const steps = groups.flatMap((group) => stepsFor(params, group));
  return groupByFolder(steps);
}

function stepsFor(params: PlanParams, group: readonly TargetMessage[]): Step[] {
  const { action, folders, scope } = params;
  const thread = scope === 'threads';
  const role = (message: TargetMessage) => folders.roleOf(message.folderId);
  const notIn = (...roles: FolderRole[]) => (message: TargetMessage) => !roles.includes(role(message) as FolderRole);
  const need = (folderRole: FolderRole): number => {
    const id = folders.ids[folderRole];
    if (id === undefined) throw new TernError('TargetFolderNotExists', { detail: { role: folderRole } });
    return id;
  };
  const moveTo = (toFolderId: number, picked: readonly TargetMessage[]): Step[] =>
    picked.filter((message) => message.folderId !== toFolderId).map((message) => ({ message, intent: { kind: 'move', toFolderId } }));
  const all = (intent: Intent, picked: readonly TargetMessage[] = group): Step[] => picked.map((message) => ({ message, intent }));

  const trash = () => moveTo(need('trash'), thread ? group.filter(notIn('drafts')) : group);
  const spam = () => moveTo(need('junk'), thread ? group.filter(notIn('sent', 'drafts', 'trash')) : group);

  switch (action) {
    case 'read':
      return all(flags([SEEN], []));
    case 'unread': {
      const received = group.filter(notIn('sent', 'drafts'));
      return all(flags([], [SEEN]), thread && received.length > 0 ? received : group);
    }
    case 'star': {
      if (!thread) return all(flags([FLAGGED], []));
      const candidates = group.filter(notIn('drafts'));
      const latest = latestOf(candidates.length > 0 ? candidates : group);
      return latest ? all(flags([FLAGGED], []), [latest]) : [];
    }
    case 'unstar':
      return all(flags([], [FLAGGED]));
    case 'archive': {
      const archive = need('archive');
      if (!thread) return moveTo(archive, group);
      const inInbox = group.filter((message) => role(message) === 'inbox');
      return moveTo(archive, inInbox.length > 0 ? inInbox : group.filter(notIn('sent', 'drafts', 'trash', 'junk')));
    }
    case 'trash':
      return trash();
    case 'spam':
      return spam();
    case 'notspam':
      return moveTo(need('inbox'), group.filter((message) => role(message) === 'junk'));
    case 'move': {
      const target = params.targetFolderId;
      if (target === undefined) throw new TernError('InvalidParameter', { detail: { path: 'folderId', message: 'Required for move.' } });
      const targetRole = folders.roleOf(target);
      if (targetRole === 'trash') return trash();
      if (targetRole === 'junk') return spam();
      return moveTo(target, thread ? group.filter(notIn('sent', 'drafts')) : group);
    }
    case 'label':
    case 'unlabel': {
      const keyword = params.keyword;
      if (keyword === undefined) throw new TernError('InvalidParameter', { detail: { path: 'keyword', message: 'Required for label.' } });
      return all(action === 'label' ? flags([keyword], []) : flags([], [keyword]));
    }
    case 'delete': {
      const disposable = group.filter((message) => role(message) === 'trash' || role(message) === 'junk');
      if (thread) return disposable.length > 0 ? all({ kind: 'expunge' }, disposable) : trash();
      const rest = group.filter(notIn('trash', 'junk'));
      // Trash is only required when something actually goes there.
      return [...all({ kind: 'expunge' }, disposable), ...(rest.length > 0 ? moveTo(need('trash'), rest) : [])];
    }
  }
}

function byThread(messages: readonly TargetMessage[]): Map<number, TargetMessage[]> {
  const threads = new Map<number, TargetMessage[]>();
  for (const message of messages) {
    const list = threads.get(message.threadId) ?? [];
    list.push(message);
    threads.set(message.threadId, list);
  }
  return threads;
}

function latestOf(messages: readonly TargetMessage[]): TargetMessage | undefined {
  return [...messages].sort((a, b) => b.date - a.date || b.id - a.id)[0];
}

const intentKey = (intent: Intent) =>
  intent.kind === 'flags' ? `flags:${intent.add.join()}:${intent.remove.join()}` : intent.kind === 'move' ? `move:${intent.toFolderId}` : 'expunge';

function groupByFolder(steps: readonly Step[]): FolderOp[] {
  const ops = new Map<string, { folderId: number; intent: Intent; messages: TargetMessage[] }>();
  const seen = new Set<string>();
  for (const { message, intent } of steps) {
    const key = `${message.folderId}|${intentKey(intent)}`;
    if (seen.has(`${key}|${message.id}`)) continue;
    seen.add(`${key}|${message.id}`);
    const op = ops.get(key) ?? { folderId: message.folderId, intent, messages: [] };
    op.messages.push(message);
    ops.set(key, op);
  }
  return [...ops.values()];
}
