/**
 * Selection of thread-list rows (click, shift-click, ctrl-click, `x`). A selection keeps
 * the account and thread of every row so it survives the row scrolling out of the window.
 */
import type { ThreadRow } from '../../../shared/worker-mail-api';

export interface ThreadRef {
  readonly key: string;
  readonly accountId: string;
  readonly threadId: string;
}

export type Selection = ReadonlyMap<string, ThreadRef>;

export const EMPTY_SELECTION: Selection = new Map();

export const refOf = (row: ThreadRow): ThreadRef => ({ key: row.key, accountId: row.accountId, threadId: row.threadId });

export function selectOnly(row: ThreadRow): Selection {
  return new Map([[row.key, refOf(row)]]);
}

export function toggleRow(selection: Selection, row: ThreadRow): Selection {
  const next = new Map(selection);
  if (next.has(row.key)) next.delete(row.key);
  else next.set(row.key, refOf(row));
  return next;
}

/** Adds the rows from the anchor to the clicked row (both included); rows not held are skipped. */
export function selectRange(selection: Selection, rowsInRange: readonly ThreadRow[]): Selection {
  const next = new Map(selection);
  for (const row of rowsInRange) next.set(row.key, refOf(row));
  return next;
}

/** Commands act per account: the selected thread ids grouped by account. */
export function groupByAccount(refs: Iterable<ThreadRef>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const ref of refs) {
    const ids = groups.get(ref.accountId);
    if (ids) ids.push(ref.threadId);
    else groups.set(ref.accountId, [ref.threadId]);
  }
  return groups;
}

/** Drops selected rows the list no longer shows (after archive, delete, or a patch moving them out). */
export function keepHeld(selection: Selection, heldKeys: ReadonlySet<string>): Selection {
  if (selection.size === 0) return selection;
  let changed = false;
  const next = new Map<string, ThreadRef>();
  for (const [key, ref] of selection) {
    if (heldKeys.has(key)) next.set(key, ref);
    else changed = true;
  }
  return changed ? next : selection;
}
