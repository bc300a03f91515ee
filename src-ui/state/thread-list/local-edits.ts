/**
 * Changes this tab made to rows that the worker's list does not show yet. The worker
 * applies a command optimistically too, but only after an IndexedDB transaction and a
 * re-read of the window (≈ 25 ms, more on a slow machine), so Shift+I and `e` waited for
 * that round trip before the row changed. These edits are laid over the held rows when
 * the list renders, never written into them: the worker's patches keep addressing the
 * list the worker knows, whatever the tab shows meanwhile.
 */
import { rowShowsEffect, rowWithEffect } from '../../../shared/command-effects';
import type { ThreadRow } from '../../../shared/worker-mail-api';
import type { HeldList } from './list-patch';

/** What the tab shows for a row until the worker's list agrees. */
export type RowEdit =
  /** The row has left the list (archived, moved, deleted). */
  | { readonly kind: 'remove' }
  /** Read state and star as the command sets them (absent: unchanged), by shared/command-effects.ts. */
  | { readonly kind: 'flags'; readonly unread?: boolean; readonly starred?: boolean };

/** Edits by row key. */
export type LocalEdits = ReadonlyMap<string, RowEdit>;

export const NO_EDITS: LocalEdits = new Map();

/** Edited rows keep one object per (row, edit), so a memoised row renders once per change, not on every list update. */
const editedRows = new WeakMap<ThreadRow, WeakMap<RowEdit, ThreadRow>>();

function editedRow(row: ThreadRow, edit: Extract<RowEdit, { kind: 'flags' }>): ThreadRow {
  if (rowShows(row, edit)) return row;
  let byEdit = editedRows.get(row);
  if (!byEdit) {
    byEdit = new WeakMap();
    editedRows.set(row, byEdit);
  }
  let edited = byEdit.get(edit);
  if (!edited) {
    // The worker marks a row whose command is still in the outbox; the same look at once avoids a second change.
    edited = { ...rowWithEffect(row, edit), pending: true };
    byEdit.set(edit, edited);
  }
  return edited;
}

/** Whether a row already looks as the edit says. */
const rowShows = (row: ThreadRow, edit: Extract<RowEdit, { kind: 'flags' }>): boolean => rowShowsEffect(row, edit);

/**
 * The held list as the tab shows it: removed rows left out (the rows after them move up
 * and the total shrinks), flags changed. The same object when no edit applies.
 */
export function withLocalEdits(held: HeldList | null, edits: LocalEdits): HeldList | null {
  if (!held || edits.size === 0) return held;
  let changed = false;
  const rows: ThreadRow[] = [];
  for (const row of held.rows) {
    const edit = edits.get(row.key);
    if (!edit) rows.push(row);
    else if (edit.kind === 'remove') changed = true;
    else {
      const shown = editedRow(row, edit);
      changed ||= shown !== row;
      rows.push(shown);
    }
  }
  if (!changed) return held;
  return { ...held, total: Math.max(0, held.total - (held.rows.length - rows.length)), rows };
}

/** Whether the worker's list shows the edit by itself: the row is gone, or has those flags (or is not held: nothing to show). */
export function editShown(held: HeldList | null, key: string, edit: RowEdit): boolean {
  const row = held?.rows.find((candidate) => candidate.key === key);
  if (!row) return true;
  return edit.kind === 'flags' && rowShows(row, edit);
}
