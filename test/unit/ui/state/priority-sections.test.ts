/**
 * The priority inbox's sections in the tab (issue 17 point 4): the held list keeps the
 * Important section's size from snapshots and patches, and the rows below each heading sit
 * lower by the headings above them (thread-list/ThreadList.tsx sectionShift).
 */
import { expect, test } from 'vitest';
import { applyListPatch, heldFromSnapshot } from '../../../../src-ui/state/thread-list/list-patch';
import { SECTION_HEADING_PX, sectionShift } from '../../../../src-ui/thread-list/ThreadList';

test('rows sit below one heading in the Important section and two after it; no sections, no shift', () => {
  expect([0, 2, 3, 9].map((index) => sectionShift(index, 3, 10))).toEqual([SECTION_HEADING_PX, SECTION_HEADING_PX, 2 * SECTION_HEADING_PX, 2 * SECTION_HEADING_PX]);
  // Everything important: no "Everything else" heading below it.
  expect(sectionShift(3, 3, 3)).toBe(SECTION_HEADING_PX);
  expect(sectionShift(5, 0, 10)).toBe(0);
  expect(sectionShift(5, undefined, 10)).toBe(0);
});

test('the held list keeps the section size of the snapshot, and a patch changes it only when it says so', () => {
  const held = heldFromSnapshot({ subscriptionId: 's', total: 10, offset: 0, rows: [], complete: true, important: 2 });
  expect(held.important).toBe(2);
  expect(applyListPatch(held, { subscriptionId: 's', total: 10, offset: 0, changed: [] }).important).toBe(2);
  expect(applyListPatch(held, { subscriptionId: 's', total: 10, offset: 0, changed: [], important: 3 }).important).toBe(3);
  expect(applyListPatch(held, { subscriptionId: 's', total: 10, offset: 0, rows: [], important: 0 }).important).toBe(0);
  expect(heldFromSnapshot({ subscriptionId: 't', total: 1, offset: 0, rows: [], complete: true }).important).toBeUndefined();
});
