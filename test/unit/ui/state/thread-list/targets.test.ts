/**
 * What a key or a toolbar button acts on (src-ui/thread-list/targets.ts): keys take the
 * checked rows, else the cursor's row, else the open thread; buttons never the cursor.
 */
import { expect, test } from 'vitest';
import type { ThreadRow } from '../../../../../shared/worker-mail-api';
import type { HeldList } from '../../../../../src-ui/state/thread-list/list-patch';
import { selectOnly, EMPTY_SELECTION } from '../../../../../src-ui/state/thread-list/selection';
import { resolveTargets, type TargetFacts } from '../../../../../src-ui/state/thread-list/targets';

const row = (i: number) => ({ key: `1:t${i}`, accountId: '1', threadId: `t${i}` }) as ThreadRow;
/** Rows 10–29 of a 100-thread list. */
const held: HeldList = { subscriptionId: 's', total: 100, offset: 10, rows: Array.from({ length: 20 }, (_, i) => row(10 + i)), complete: true };
const facts = (over: Partial<TargetFacts>): TargetFacts => ({ held, selection: EMPTY_SELECTION, openKey: null, cursor: { key: null, index: 12 }, listShown: true, ...over });
const keys = (over: Partial<TargetFacts>) => resolveTargets(facts(over)).map((ref) => ref.key);

test('keys with nothing checked act on the cursor row (v, e, # … alike)', () => {
  expect(keys({})).toEqual(['1:t12']);
  expect(keys({ cursor: { key: '1:t15', index: 12 } })).toEqual(['1:t15']); // by key: where its thread is now
});

test('checked rows win over the cursor and the open thread', () => {
  expect(keys({ selection: selectOnly(row(20)), openKey: '1:t14', cursor: { key: '1:t15', index: 15 } })).toEqual(['1:t20']);
});

test('the cursor wins over the open thread; with no cursor row the open thread is meant', () => {
  expect(keys({ openKey: '1:t14', cursor: { key: '1:t16', index: 16 } })).toEqual(['1:t16']);
  // The cursor on the open thread, which is outside the held window (opened from a link): that thread, not row 12.
  expect(keys({ openKey: '1:t90', cursor: { key: '1:t90', index: 12 } })).toEqual(['1:t90']);
  // No row under the cursor (an empty list): the open thread.
  expect(keys({ held: { ...held, total: 0, rows: [] }, openKey: '1:t90' })).toEqual(['1:t90']);
});

test('a thread that left the list leaves the cursor on the row now in its place', () => {
  expect(keys({ cursor: { key: '1:gone', index: 13 } })).toEqual(['1:t13']);
});

test('while the list is hidden (single-thread views), keys act on the thread on screen', () => {
  expect(keys({ openKey: '1:t14', cursor: { key: '1:t16', index: 16 }, listShown: false })).toEqual(['1:t14']);
});

test('toolbar buttons (no cursor) act on the checked rows, else the open thread, else nothing', () => {
  expect(keys({ cursor: null })).toEqual([]);
  expect(keys({ cursor: null, openKey: '1:t14' })).toEqual(['1:t14']);
  expect(keys({ cursor: null, selection: selectOnly(row(11)), openKey: '1:t14' })).toEqual(['1:t11']);
});
