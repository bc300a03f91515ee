/**
 * The thread-list window a tab holds, and how snapshots and patches from the worker
 * change it. Rows that did not change keep their object identity, so memoised row
 * components skip them (structured clone gives every pushed row a new object).
 */
import type { ListPatch, ListSnapshot, ThreadRow } from '../../../shared/worker-mail-api';

export interface HeldList {
  readonly subscriptionId: string;
  /** Threads in the whole list. */
  readonly total: number;
  /** Index of `rows[0]` in the whole list. */
  readonly offset: number;
  readonly rows: readonly ThreadRow[];
  /** The worker knows the list's contents (ListSnapshot.complete): only then is an empty list "empty". */
  readonly complete: boolean;
  /** A search cut at the match limit (ListSnapshot.truncated): the list says so. Absent: not cut. */
  readonly truncated?: boolean;
  /** A priority inbox: the Important section's size at its top (ListSnapshot.important). Absent: no sections. */
  readonly important?: number;
}

const sameArray = <T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean) =>
  a.length === b.length && a.every((item, i) => same(item, b[i] as T));

/** Whether two rows would render the same. */
export function sameRow(a: ThreadRow, b: ThreadRow): boolean {
  return (
    a.key === b.key &&
    a.subject === b.subject &&
    a.snippet === b.snippet &&
    a.lastMessageAt === b.lastMessageAt &&
    a.messageCount === b.messageCount &&
    a.unreadCount === b.unreadCount &&
    a.starred === b.starred &&
    a.hasAttachments === b.hasAttachments &&
    a.pending === b.pending &&
    sameArray(a.keywords ?? [], b.keywords ?? [], (x, y) => x === y) &&
    sameArray(a.folderIds, b.folderIds, (x, y) => x === y) &&
    sameArray(a.participants, b.participants, (x, y) => x.email === y.email && x.name === y.name)
  );
}

/** Keeps the old object of every row that did not change. */
function reuseRows(rows: readonly ThreadRow[], previous: readonly ThreadRow[]): readonly ThreadRow[] {
  if (previous.length === 0) return rows;
  const byKey = new Map(previous.map((row) => [row.key, row]));
  return rows.map((row) => {
    const old = byKey.get(row.key);
    return old && sameRow(old, row) ? old : row;
  });
}

/** The held list after a snapshot (a new subscription or a moved window). */
export function heldFromSnapshot(snapshot: ListSnapshot, previous?: HeldList): HeldList {
  const rows = reuseRows(snapshot.rows, previous?.rows ?? []);
  return {
    subscriptionId: snapshot.subscriptionId,
    total: snapshot.total,
    offset: snapshot.offset,
    rows,
    complete: snapshot.complete,
    truncated: snapshot.truncated ?? false,
    ...(snapshot.important === undefined ? {} : { important: snapshot.important }),
  };
}

/** Applies a patch; a patch of another subscription (an old list still draining) changes nothing. */
export function applyListPatch(held: HeldList, patch: ListPatch): HeldList {
  if (patch.subscriptionId !== held.subscriptionId) return held;
  const complete = patch.complete ?? held.complete;
  const truncated = patch.truncated ?? held.truncated;
  const important = patch.important ?? held.important;
  const sections = important === undefined ? {} : { important };
  if (patch.rows) {
    return { subscriptionId: held.subscriptionId, total: patch.total, offset: patch.offset, rows: reuseRows(patch.rows, held.rows), complete, truncated, ...sections };
  }
  const rows = [...held.rows];
  for (const { index, row } of patch.changed ?? []) {
    const local = index - held.offset;
    if (local < 0 || local > rows.length) continue; // outside the held window: not ours to keep
    const old = rows[local];
    rows[local] = old && sameRow(old, row) ? old : row;
  }
  rows.length = Math.max(0, Math.min(rows.length, patch.total - held.offset));
  const unchanged = rows.length === held.rows.length && rows.every((row, i) => row === held.rows[i]);
  return { subscriptionId: held.subscriptionId, total: patch.total, offset: held.offset, rows: unchanged ? held.rows : rows, complete, truncated, ...sections };
}

/**
 * What the list area shows: rows, loading rows (nothing known yet, or an empty list whose
 * accounts are still on their first sync), or the empty state (known to hold nothing).
 */
export function listDisplay(status: 'idle' | 'loading' | 'ready' | 'failed', held: HeldList | null): 'rows' | 'loading' | 'empty' {
  if (status !== 'ready' || !held) return status === 'failed' ? 'rows' : 'loading';
  if (held.total > 0) return 'rows';
  return held.complete ? 'empty' : 'loading';
}

/** The row at an index of the whole list, if held. */
export function rowAt(held: HeldList | null, index: number): ThreadRow | undefined {
  if (!held) return undefined;
  return held.rows[index - held.offset];
}

/** Index in the whole list of a held row, or -1. */
export function indexOfKey(held: HeldList | null, key: string): number {
  if (!held) return -1;
  const local = held.rows.findIndex((row) => row.key === key);
  return local < 0 ? -1 : held.offset + local;
}
