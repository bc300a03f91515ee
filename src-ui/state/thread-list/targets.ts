/**
 * Which threads a command acts on. Keys (e, #, !, s, Shift+I/U, v, r/a/f): the checked
 * rows if any, else the cursor's row, else the open thread (Gmail's order). Toolbar
 * buttons: the checked rows, else the open thread — a button never acts on a row the
 * pointer did not choose.
 */
import type { ThreadRow } from '../../../shared/worker-mail-api';
import { parseRowKey } from './row-key';
import { indexOfKey, rowAt, type HeldList } from './list-patch';
import { refOf, type Selection, type ThreadRef } from './selection';

/** A row key as a ThreadRef: from the held row, or from the key itself when it is not held. */
export function refOfKey(held: HeldList | null, key: string): ThreadRef | null {
  const row = rowAt(held, indexOfKey(held, key));
  if (row) return refOf(row);
  const parsed = parseRowKey(key);
  return parsed ? { key, ...parsed } : null;
}

export interface TargetFacts {
  readonly held: HeldList | null;
  readonly selection: Selection;
  /** The thread open in the reading pane. */
  readonly openKey: string | null;
  /** The keyboard cursor (cursorAtom); null for toolbar buttons. */
  readonly cursor: { readonly key: string | null; readonly index: number } | null;
  /** Whether the list is on screen (the single-thread views hide it while a thread is open). */
  readonly listShown: boolean;
}

/** The cursor's row, if the list holds it. */
function cursorRow(held: HeldList | null, cursor: { readonly key: string | null; readonly index: number }): ThreadRow | undefined {
  const total = held?.total ?? 0;
  if (total === 0) return undefined;
  if (cursor.key) {
    const at = indexOfKey(held, cursor.key);
    if (at >= 0) return rowAt(held, at);
  }
  // Its thread left the list (archived): the row now in its place, as j/k see it.
  return rowAt(held, Math.max(0, Math.min(cursor.index, total - 1)));
}

export function resolveTargets(facts: TargetFacts): ThreadRef[] {
  const { held, selection, openKey, cursor } = facts;
  if (selection.size > 0) return [...selection.values()];
  const open = openKey ? refOfKey(held, openKey) : null;
  // A hidden list has no cursor to see: the thread on screen is the one meant.
  if (cursor && facts.listShown) {
    // The cursor on the open thread (or on its key while the open thread is outside the held window).
    if (open && cursor.key === open.key) return [open];
    const row = cursorRow(held, cursor);
    if (row) return [refOf(row)];
  }
  return open ? [open] : [];
}
