/**
 * "Apply to existing mail": what Sieve cannot do (it runs on arrival only), done by the gateway
 * over IMAP on the Inbox: each condition is one UID SEARCH (IMAP's text search is a substring
 * match, so "is" finds what contains the value; "has an attachment" is a multipart/mixed
 * message), the results intersected (all) or joined (any), then the actions in batches:
 * flags and labels first, then the move (Trash for "delete"). Forwarding and "stop" do not apply
 * to mail already here. The mirror's queue runs the commands, so they take turns with the sync.
 */
import type { ImapFlow, SearchObject } from 'imapflow';
import type { MailFilter, RuleCondition } from '../../shared/mail-rules';

/** Moves and flag changes go in batches of this many UIDs (a long UID set is one long command line); each batch is a step of the run's progress. */
export const APPLY_BATCH = 100;

export function conditionQuery(condition: RuleCondition): SearchObject {
  const text = (query: SearchObject, op: 'contains' | 'is' | 'notContains'): SearchObject => (op === 'notContains' ? { not: query } : query);
  switch (condition.field) {
    case 'from':
      return text({ from: condition.value }, condition.op);
    case 'toCc':
      return text({ or: [{ to: condition.value }, { cc: condition.value }] }, condition.op);
    case 'subject':
      return text({ subject: condition.value }, condition.op);
    case 'listId':
      return text({ header: { 'list-id': condition.value } }, condition.op);
    case 'header':
      return text({ header: { [condition.name]: condition.value } }, condition.op);
    case 'size':
      return condition.op === 'over' ? { larger: condition.kilobytes * 1024 } : { smaller: condition.kilobytes * 1024 };
    case 'hasAttachment':
      return { header: { 'content-type': 'multipart/mixed' } };
  }
}

/** The UIDs of the selected folder the filter matches. */
export async function matchingUids(client: ImapFlow, filter: MailFilter): Promise<number[]> {
  let result = null as Set<number> | null;
  for (const condition of filter.conditions) {
    const found = await client.search(conditionQuery(condition), { uid: true });
    const uids = new Set(Array.isArray(found) ? found : []);
    if (result === null) result = uids;
    else if (filter.match === 'all') result = new Set([...result].filter((uid) => uids.has(uid)));
    else for (const uid of uids) result.add(uid);
  }
  return [...(result ?? [])].sort((a, b) => a - b);
}

/**
 * Applies the filter's actions to these UIDs of the selected folder, `batch` at a time, saying
 * after each how many are done; resolves with the folders mail was moved to.
 */
export async function applyActions(
  client: ImapFlow,
  uids: readonly number[],
  filter: MailFilter,
  trashPath: string | null,
  progress: { readonly batch?: number; readonly onBatch?: (done: number) => Promise<void> } = {},
): Promise<string[]> {
  const flags = filter.actions.flatMap((action) => (action.kind === 'markRead' ? ['\\Seen'] : action.kind === 'star' ? ['\\Flagged'] : action.kind === 'label' ? [action.keyword] : []));
  const move = filter.actions.find((action) => action.kind === 'move' || action.kind === 'delete');
  const target = move?.kind === 'move' ? move.folder : move?.kind === 'delete' ? trashPath : null;
  const size = progress.batch ?? APPLY_BATCH;
  for (let start = 0; start < uids.length; start += size) {
    const batch = uids.slice(start, start + size).join(',');
    if (flags.length) await client.messageFlagsAdd(batch, flags, { uid: true });
    if (target) await client.messageMove(batch, target, { uid: true });
    await progress.onBatch?.(Math.min(start + size, uids.length));
  }
  return target && uids.length ? [target] : [];
}
