/**
 * Type-ahead for menus and lists (WAI-ARIA menu pattern): letters typed in quick succession
 * make a prefix ("pr" goes to Projects past Personal); the same letter pressed again moves
 * to the next item starting with it. A pause longer than TYPE_AHEAD_RESET_MS starts a new
 * prefix. Pure: the caller keeps the state and says what time it is.
 */

/** How long a pause ends the typed prefix (the WAI-ARIA practices' example uses 500 ms). */
export const TYPE_AHEAD_RESET_MS = 500;

export interface TypeAheadState {
  readonly typed: string;
  readonly at: number;
}

export const NO_TYPE_AHEAD: TypeAheadState = { typed: '', at: -Infinity };

/**
 * The item to move to after `key` was typed at `now`, with `current` the focused item
 * (-1: none), and the state to keep; `index` is -1 when no item matches (the focus stays).
 */
export function typeAhead(params: { state: TypeAheadState; key: string; now: number; labels: readonly string[]; current: number }): { state: TypeAheadState; index: number } {
  const { key, now, labels, current } = params;
  const typed = (now - params.state.at > TYPE_AHEAD_RESET_MS ? '' : params.state.typed) + key.toLowerCase();
  const state = { typed, at: now };
  const count = labels.length;
  const normalised = labels.map((label) => label.trim().toLowerCase());
  // One letter, or the same letter again: cycle through the items starting with it, after the current one.
  const repeated = [...typed].every((char) => char === typed[0]);
  const prefix = repeated ? typed[0]! : typed;
  const start = repeated ? current + 1 : Math.max(current, 0);
  for (let step = 0; step < count; step++) {
    const index = (((start + step) % count) + count) % count;
    if (normalised[index]!.startsWith(prefix)) return { state, index };
  }
  return { state, index: -1 };
}
