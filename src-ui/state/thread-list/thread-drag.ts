/**
 * Conversations dragged from the list onto a sidebar label (issue 17 point 1): what a drag
 * carries — the checked rows when the dragged row is one of them, else that row — under a
 * type of our own, so a drop elsewhere (the composer, another app) finds nothing to take.
 */
import type { ThreadRow } from '../../../shared/worker-mail-api';
import { refOf, type Selection, type ThreadRef } from './selection';

export const THREAD_DRAG_TYPE = 'application/x-tern-threads';

/** The threads a drag of `row` carries. */
export function draggedThreads(row: ThreadRow, selection: Selection): ThreadRef[] {
  return selection.has(row.key) ? [...selection.values()] : [refOf(row)];
}

/** Whether a drag carries conversations (its data is only readable on drop). */
export function carriesThreads(types: readonly string[]): boolean {
  return types.includes(THREAD_DRAG_TYPE);
}

/** The threads of a drop, as refs; anything malformed is none. */
export function droppedThreads(data: string): ThreadRef[] {
  try {
    const value: unknown = JSON.parse(data);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (ref): ref is ThreadRef =>
        typeof ref === 'object' && ref !== null && typeof (ref as ThreadRef).key === 'string' && typeof (ref as ThreadRef).accountId === 'string' && typeof (ref as ThreadRef).threadId === 'string',
    );
  } catch {
    return [];
  }
}
