import { expect, test } from 'vitest';
import { MAX_DOM_ROWS, needsWindowMove, renderedRange, ROW_BLOCK, sameRange, scrollTopToShow, windowAround } from '../../../../src-ui/kit/virtual-window';

const facts = { rowHeight: 40, viewportHeight: 800, total: 100_000, block: 1 };

test('renders the rows on screen plus overscan, whatever the list length', () => {
  expect(renderedRange({ ...facts, scrollTop: 0 })).toEqual({ start: 0, end: 21 + 8 });
  const middle = renderedRange({ ...facts, scrollTop: 40 * 50_000 + 13 });
  expect(middle).toEqual({ start: 50_000 - 8, end: 50_000 + 21 + 8 });
  expect(middle.end - middle.start).toBeLessThanOrEqual(MAX_DOM_ROWS);
});

test('clamps at the end of the list and for empty or tiny lists', () => {
  expect(renderedRange({ ...facts, scrollTop: 40 * 100_000 })).toEqual({ start: 99_992, end: 100_000 });
  expect(renderedRange({ ...facts, scrollTop: 40 * 100_000 - 800 })).toEqual({ start: 99_972, end: 100_000 });
  expect(renderedRange({ ...facts, total: 0, scrollTop: 0 })).toEqual({ start: 0, end: 0 });
  expect(renderedRange({ ...facts, total: 3, scrollTop: 0 })).toEqual({ start: 0, end: 3 });
  expect(renderedRange({ ...facts, scrollTop: -50 })).toEqual({ start: 0, end: 29 });
});

test('the range moves in whole blocks: scrolling within a block renders the same rows', () => {
  const blocks = { ...facts, block: ROW_BLOCK };
  const at = (row: number) => renderedRange({ ...blocks, scrollTop: 40 * row });
  expect(at(1000)).toEqual({ start: 992, end: 1032 });
  // Still the rows on screen plus at least the overscan on both sides, at every row of a block.
  for (let row = 1000; row < 1016; row++) {
    const range = at(row);
    expect(range.start % ROW_BLOCK).toBe(0);
    expect(range.start).toBeLessThanOrEqual(row - 8);
    expect(range.end).toBeGreaterThanOrEqual(row + 21 + 8);
  }
  // Eight rows of scrolling, two changes of the rows rendered (a block in below, one out above).
  const changes = Array.from({ length: 8 }, (_, i) => 1000 + i).filter((row) => !sameRange(at(row), at(row + 1)));
  expect(changes).toHaveLength(2);
  expect(at(0)).toEqual({ start: 0, end: 32 });
  expect(at(100_000)).toEqual({ start: 99_992, end: 100_000 });
});

test('never more than MAX_DOM_ROWS, even on a very tall viewport', () => {
  const range = renderedRange({ ...facts, rowHeight: 10, viewportHeight: 5000, scrollTop: 10_000 });
  expect(range.end - range.start).toBe(MAX_DOM_ROWS);
});

test('the data window is centred on the rendered rows and clamped to the list', () => {
  expect(windowAround({ start: 500, end: 530 }, 100_000, 150)).toEqual({ offset: 440, limit: 150 });
  expect(windowAround({ start: 0, end: 30 }, 100_000, 150)).toEqual({ offset: 0, limit: 150 });
  expect(windowAround({ start: 99_980, end: 100_000 }, 100_000, 150)).toEqual({ offset: 99_850, limit: 150 });
  expect(windowAround({ start: 0, end: 10 }, 10, 150)).toEqual({ offset: 0, limit: 150 });
});

test('the window moves before the rendered rows reach its edge, not at every scroll', () => {
  const held = { offset: 1000, limit: 150 };
  expect(needsWindowMove(held, { start: 1050, end: 1080 }, 100_000)).toBe(false);
  expect(needsWindowMove(held, { start: 1010, end: 1040 }, 100_000)).toBe(true); // within 25 of the top edge
  expect(needsWindowMove(held, { start: 1110, end: 1140 }, 100_000)).toBe(true); // within 25 of the bottom edge
  expect(needsWindowMove(held, { start: 5000, end: 5030 }, 100_000)).toBe(true); // a jump
  // At the ends of the list there is nothing more to fetch.
  expect(needsWindowMove({ offset: 0, limit: 150 }, { start: 0, end: 29 }, 100_000)).toBe(false);
  expect(needsWindowMove({ offset: 99_850, limit: 150 }, { start: 99_971, end: 100_000 }, 100_000)).toBe(false);
  expect(needsWindowMove({ offset: 0, limit: 150 }, { start: 0, end: 0 }, 0)).toBe(false);
});

test('scrolls just enough to show a row', () => {
  const view = { rowHeight: 40, scrollTop: 400, viewportHeight: 400 };
  expect(scrollTopToShow({ ...view, index: 12 })).toBe(400);
  expect(scrollTopToShow({ ...view, index: 5 })).toBe(200);
  expect(scrollTopToShow({ ...view, index: 25 })).toBe(26 * 40 - 400);
});
