/**
 * How wide the thread list is beside the reading pane (the conversation view), and when
 * there is no room for both: then the open thread takes the whole mailbox, with Back to the
 * list (Gmail's fallback), instead of either one being squeezed unreadable.
 */

/** localStorage key of the list's width chosen with the divider (CSS pixels). */
export const LIST_WIDTH_STORAGE_KEY = 'tern.listWidth';
/** Narrower, a row's sender and subject are cut to a few letters. */
export const MIN_LIST_WIDTH = 300;
/** Narrower, a 640 px newsletter is zoomed below 3/4 and plain text is a thin column. */
export const MIN_PANE_WIDTH = 480;
/** One divider step with the arrow keys. */
export const LIST_WIDTH_STEP = 16;

export type PaneArrangement = 'side' | 'replace';

/**
 * Side by side only when both minimums fit. An unknown width (0: not laid out yet, or a
 * test DOM without layout) keeps the view's own arrangement.
 */
export function arrangementFor(bodyWidth: number): PaneArrangement {
  return bodyWidth > 0 && bodyWidth < MIN_LIST_WIDTH + MIN_PANE_WIDTH ? 'replace' : 'side';
}

export interface ListWidthBounds {
  readonly min: number;
  readonly max: number;
}

export function listWidthBounds(bodyWidth: number): ListWidthBounds {
  return { min: MIN_LIST_WIDTH, max: Math.max(MIN_LIST_WIDTH, Math.floor(bodyWidth) - MIN_PANE_WIDTH) };
}

/** Before any drag: 40 % of the mailbox, between 340 and 540 px (the layout's old rule). */
export function defaultListWidth(bodyWidth: number): number {
  return Math.round(Math.min(540, Math.max(340, bodyWidth * 0.4)));
}

/** The width shown: the chosen one (else the default) kept inside what leaves both minimums. */
export function clampListWidth(chosen: number | null, bodyWidth: number): number {
  const { min, max } = listWidthBounds(bodyWidth);
  const wanted = chosen ?? defaultListWidth(bodyWidth);
  return Math.round(Math.min(max, Math.max(min, wanted)));
}

/** A stored width, or null (none, or not a sane pixel count). */
export function parseListWidth(value: unknown): number | null {
  const width = typeof value === 'string' && /^\d{3,4}$/.test(value) ? Number(value) : NaN;
  return width >= MIN_LIST_WIDTH && width <= 4000 ? width : null;
}

export function readListWidth(storage: Pick<Storage, 'getItem'> | undefined): number | null {
  try {
    return parseListWidth(storage?.getItem(LIST_WIDTH_STORAGE_KEY));
  } catch {
    return null;
  }
}
