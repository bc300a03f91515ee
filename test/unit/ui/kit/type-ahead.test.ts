import { expect, test } from 'vitest';
import { NO_TYPE_AHEAD, TYPE_AHEAD_RESET_MS, typeAhead, type TypeAheadState } from '../../../../src-ui/kit/type-ahead';

const labels = ['Archive', 'Personal', 'Projects', 'Promotions', 'Receipts'];

/** Types `keys` at the given times, starting on `current`; answers the index reached after each. */
function type(keys: readonly [string, number][], current = -1): number[] {
  let state: TypeAheadState = NO_TYPE_AHEAD;
  return keys.map(([key, now]) => {
    const next = typeAhead({ state, key, now, labels, current });
    state = next.state;
    if (next.index >= 0) current = next.index;
    return next.index;
  });
}

test('letters typed quickly make a prefix: "pro" goes past Personal to Projects, then stays on the first match', () => {
  expect(type([['p', 0], ['r', 100], ['o', 200], ['m', 300]])).toEqual([1, 2, 2, 3]);
});

test('the same letter again moves to the next item starting with it, and wraps', () => {
  expect(type([['p', 0], ['p', 100], ['p', 200], ['p', 300]])).toEqual([1, 2, 3, 1]);
  // From the focused item on: after Projects, "p" goes to Promotions.
  expect(type([['p', 0]], 2)).toEqual([3]);
});

test('a pause starts a new prefix; a prefix nothing starts leaves the focus where it is', () => {
  expect(type([['p', 0], ['r', TYPE_AHEAD_RESET_MS + 1]])).toEqual([1, 4]);
  expect(type([['p', 0], ['x', 50]])).toEqual([1, -1]);
  expect(type([['R', 0]])).toEqual([4]); // case does not matter
});
