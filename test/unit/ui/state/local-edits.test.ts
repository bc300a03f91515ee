import { createStore } from 'jotai';
import { afterEach, expect, test, vi } from 'vitest';
import type { ThreadRow } from '../../../../shared/worker-mail-api';
import { localEditsAtom, threadListAtom, visibleListAtom, type ThreadListState } from '../../../../src-ui/state/atoms';
import { createLocalEditsKeeper } from '../../../../src-ui/state/local-edits';
import type { HeldList } from '../../../../src-ui/state/thread-list/list-patch';
import { editShown, NO_EDITS, withLocalEdits } from '../../../../src-ui/state/thread-list/local-edits';
import { threadRow } from '../support/thread-rows';

afterEach(() => vi.useRealTimers());

/** Odd rows unread. */
const row = (n: number, over: Partial<ThreadRow> = {}): ThreadRow => threadRow(n, { unreadCount: n % 2, ...over });
const held = (rows: ThreadRow[], over: Partial<HeldList> = {}): HeldList => ({ subscriptionId: 'sub-1', total: 500, offset: 100, rows, complete: true, ...over });
const ready = (list: HeldList): ThreadListState => ({ scopeKey: 's', scope: null, status: 'ready', window: { offset: 100, limit: 150 }, held: list, error: null });

test('removed rows leave the list (the rest move up, the total shrinks); flags show; untouched rows keep their objects', () => {
  const rows = [row(1), row(2), row(3), row(4)];
  const list = held(rows);
  const shown = withLocalEdits(list, new Map([['1001:2', { kind: 'remove' } as const], ['1001:3', { kind: 'flags', unread: false } as const]]))!;
  expect(shown.rows.map((r) => r.key)).toEqual(['1001:1', '1001:3', '1001:4']);
  expect(shown.total).toBe(499);
  expect(shown.offset).toBe(100);
  expect(shown.rows[0]).toBe(rows[0]);
  expect(shown.rows[2]).toBe(rows[3]);
  expect(shown.rows[1]).toMatchObject({ key: '1001:3', unreadCount: 0, pending: true });
  expect(rows[2]!.unreadCount).toBe(1); // the worker's row is never changed
});

test('no edit that changes anything: the same list object; an edited row is the same object on every recompute', () => {
  const rows = [row(1), row(2)];
  const list = held(rows);
  expect(withLocalEdits(list, NO_EDITS)).toBe(list);
  expect(withLocalEdits(list, new Map([['1001:2', { kind: 'flags', unread: false } as const]]))).toBe(list); // row 2 is read already
  expect(withLocalEdits(list, new Map([['1001:9', { kind: 'remove' } as const]]))).toBe(list); // not held
  const star = { kind: 'flags', starred: true } as const;
  const edits = new Map([['1001:1', star]]);
  expect(withLocalEdits(list, edits)!.rows[0]).toBe(withLocalEdits({ ...list, total: 501 }, edits)!.rows[0]);
  expect(withLocalEdits(null, edits)).toBeNull();
});

test('whether the worker’s list shows an edit by itself', () => {
  const list = held([row(1), row(2, { starred: true })]);
  expect(editShown(list, '1001:1', { kind: 'remove' })).toBe(false);
  expect(editShown(list, '1001:7', { kind: 'remove' })).toBe(true);
  expect(editShown(list, '1001:2', { kind: 'flags', starred: true })).toBe(true);
  expect(editShown(list, '1001:1', { kind: 'flags', unread: false })).toBe(false);
  expect(editShown(list, '1001:1', { kind: 'flags', unread: true })).toBe(true);
});

function keeperWith(rows: ThreadRow[], timeoutMs = 4_000) {
  const store = createStore();
  store.set(threadListAtom, ready(held(rows)));
  const keeper = createLocalEditsKeeper(store, timeoutMs);
  const workerShows = (next: ThreadRow[], over: Partial<HeldList> = {}) => store.set(threadListAtom, ready(held(next, over)));
  const keys = () => store.get(visibleListAtom).held?.rows.map((r) => r.key);
  return { store, keeper, workerShows, keys };
}

test('an edit shows at once and stays until the engine accepted the command and the worker’s list shows it', () => {
  const { store, keeper, workerShows, keys } = keeperWith([row(1), row(2), row(3)]);
  const settle = keeper.begin(['1001:2'], { kind: 'remove' });
  expect(keys()).toEqual(['1001:1', '1001:3']);
  // A list the worker computed before it took the command: the row is still there; the edit stays.
  workerShows([row(1), row(2), row(3), row(4)]);
  expect(keys()).toEqual(['1001:1', '1001:3', '1001:4']);
  settle(true);
  expect(store.get(localEditsAtom).size).toBe(1);
  workerShows([row(1), row(3), row(4)]);
  expect(store.get(localEditsAtom).size).toBe(0);
  expect(keys()).toEqual(['1001:1', '1001:3', '1001:4']);
  keeper.stop();
});

test('a refused command takes its edit back at once', () => {
  const { store, keeper, keys } = keeperWith([row(1), row(2)]);
  const settle = keeper.begin(['1001:1'], { kind: 'flags', unread: false });
  expect(store.get(visibleListAtom).held?.rows[0]?.unreadCount).toBe(0);
  settle(false);
  expect(store.get(visibleListAtom).held?.rows[0]?.unreadCount).toBe(1);
  expect(keys()).toEqual(['1001:1', '1001:2']);
  keeper.stop();
});

test('the worker’s list wins after the timeout, and when another list is shown', () => {
  vi.useFakeTimers();
  const { store, keeper, workerShows, keys } = keeperWith([row(1), row(2)], 1_000);
  keeper.begin(['1001:1'], { kind: 'remove' })(true);
  expect(keys()).toEqual(['1001:2']);
  vi.advanceTimersByTime(1_001);
  expect(keys()).toEqual(['1001:1', '1001:2']);
  keeper.begin(['1001:2'], { kind: 'remove' });
  workerShows([row(1), row(2)], { subscriptionId: 'sub-2' });
  expect(store.get(localEditsAtom)).toBe(NO_EDITS);
  keeper.stop();
});

test('flag edits of one row add up, and the newer outlives the settling of the older', () => {
  const { store, keeper } = keeperWith([row(1)]);
  const read = keeper.begin(['1001:1'], { kind: 'flags', unread: false });
  keeper.begin(['1001:1'], { kind: 'flags', starred: true });
  expect(store.get(visibleListAtom).held?.rows[0]).toMatchObject({ unreadCount: 0, starred: true });
  read(false);
  expect(store.get(localEditsAtom).get('1001:1')).toEqual({ kind: 'flags', unread: false, starred: true });
  keeper.stop();
});
