/**
 * The arithmetic of the hand-made virtual list (DESIGN §8: ≤ ~100 DOM rows for 100k
 * threads). Rows have one fixed height, so the rows on screen follow from scrollTop
 * alone; the list holds a data window of rows from the worker a little larger than the
 * screen and asks for a new one (`moveWindow`) before the user reaches its edge.
 */
import type { ListWindow } from '../../shared/worker-mail-api';

/** Rows rendered above and below the viewport so fast scrolling rarely shows blanks. */
export const OVERSCAN_ROWS = 8;
/**
 * The rendered range moves in blocks of this many rows. Scrolling row by row changed the
 * DOM (a row in, a row out) on almost every frame, and each change costs a style, layout
 * and paint pass of the list; in blocks, most frames of a fling only scroll (two frames in
 * a block's worth of scrolling change it: one adds a block below, one drops one above).
 */
export const ROW_BLOCK = 8;
/** Never render more than this, whatever the viewport (a very tall screen, a zoomed-out page). */
export const MAX_DOM_ROWS = 100;
/** Rows asked of the worker per window once the list scrolls (its limit is 200). */
export const DATA_WINDOW_ROWS = 150;
/**
 * Rows a list first asks for: the screen, its overscan and the edge margin below it. The
 * worker reads each row of a window from IndexedDB before it answers, so a first window
 * of 150 made a new search or folder wait for rows nobody sees yet (the list asks for a
 * full window as soon as it scrolls).
 */
export const FIRST_WINDOW_ROWS = 64;
/** Ask for the next window when the rendered rows come this close to the held window's edge. */
export const WINDOW_EDGE_MARGIN = 25;

/** Rows to render: indices `start` (inclusive) to `end` (exclusive). */
export interface RowRange {
  readonly start: number;
  readonly end: number;
}

export interface ViewportFacts {
  readonly scrollTop: number;
  readonly viewportHeight: number;
  readonly rowHeight: number;
  readonly total: number;
  readonly overscan?: number;
  readonly block?: number;
}

/** The rows on screen plus overscan, widened to whole blocks, clamped to the list and to MAX_DOM_ROWS. */
export function renderedRange(facts: ViewportFacts): RowRange {
  const { rowHeight, total } = facts;
  if (total <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const overscan = facts.overscan ?? OVERSCAN_ROWS;
  const block = Math.max(1, facts.block ?? ROW_BLOCK);
  const firstVisible = Math.floor(Math.max(0, facts.scrollTop) / rowHeight);
  const visibleCount = Math.ceil(Math.max(0, facts.viewportHeight) / rowHeight) + 1;
  // Each end moves by whole blocks: the rows above leave, and the rows below arrive, a block at a time.
  const start = Math.min(Math.max(0, Math.floor((firstVisible - overscan) / block) * block), Math.max(0, total - 1));
  const end = Math.min(total, Math.ceil((firstVisible + visibleCount + overscan) / block) * block, start + MAX_DOM_ROWS);
  return { start, end };
}

/** Whether two ranges render the same rows. */
export const sameRange = (a: RowRange, b: RowRange) => a.start === b.start && a.end === b.end;

/** The data window centred on a range of rows, clamped to the list. */
export function windowAround(range: RowRange, total: number, limit = DATA_WINDOW_ROWS): ListWindow {
  const centre = Math.floor((range.start + range.end) / 2);
  const maxOffset = Math.max(0, total - limit);
  const offset = Math.min(maxOffset, Math.max(0, centre - Math.floor(limit / 2)));
  return { offset, limit };
}

/**
 * Whether the held window should move for the rows about to render: they leave it, or
 * come within WINDOW_EDGE_MARGIN of an edge beyond which the list goes on.
 */
export function needsWindowMove(held: ListWindow, range: RowRange, total: number, margin = WINDOW_EDGE_MARGIN): boolean {
  if (range.end <= range.start) return false;
  const heldEnd = held.offset + held.limit;
  const roomAbove = held.offset > 0 ? margin : 0;
  const roomBelow = heldEnd < total ? margin : 0;
  return range.start < held.offset + roomAbove || range.end > heldEnd - roomBelow;
}

/** The row index at a vertical position inside the list, for scrolling a row into view. */
export function scrollTopToShow(params: { index: number; rowHeight: number; scrollTop: number; viewportHeight: number }): number {
  const top = params.index * params.rowHeight;
  const bottom = top + params.rowHeight;
  if (top < params.scrollTop) return top;
  if (bottom > params.scrollTop + params.viewportHeight) return Math.max(0, bottom - params.viewportHeight);
  return params.scrollTop;
}
