import { expect, test } from 'vitest';
import type { ThreadRow } from '../../../../../shared/worker-mail-api';
import { applyListPatch, heldFromSnapshot, indexOfKey, rowAt, sameRow } from '../../../../../src-ui/state/thread-list/list-patch';

const row = (n: number, changes: Partial<ThreadRow> = {}): ThreadRow => ({
  key: `1:${n}`,
  accountId: '1',
  threadId: String(n),
  subject: `Subject ${n}`,
  participants: [{ name: 'Ann', email: 'ann@x.test' }],
  snippet: 'snippet',
  lastMessageAt: 1_000_000 - n,
  messageCount: 1,
  unreadCount: 0,
  starred: false,
  hasAttachments: false,
  folderIds: ['10'],
  pending: false,
  ...changes,
});
const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => row(from + i));
const held = heldFromSnapshot({ subscriptionId: 's1', total: 1000, offset: 100, rows: rows(100, 50), complete: true });

test('sameRow compares what a row renders', () => {
  expect(sameRow(row(1), row(1))).toBe(true);
  expect(sameRow(row(1), row(1, { starred: true }))).toBe(false);
  expect(sameRow(row(1), row(1, { participants: [{ name: 'Ann', email: 'ann@y.test' }] }))).toBe(false);
  expect(sameRow(row(1), row(1, { folderIds: ['10', '11'] }))).toBe(false);
});

test('a changed-rows patch replaces only those rows and keeps every other object', () => {
  const next = applyListPatch(held, { subscriptionId: 's1', total: 1000, offset: 100, changed: [{ index: 105, row: row(105, { unreadCount: 1 }) }] });
  expect(next.rows[5]?.unreadCount).toBe(1);
  next.rows.forEach((r, i) => {
    if (i !== 5) expect(r).toBe(held.rows[i]);
  });
});

test('changes outside the held window are ignored; an equal row keeps its old object', () => {
  const next = applyListPatch(held, {
    subscriptionId: 's1',
    total: 1000,
    offset: 100,
    changed: [
      { index: 5, row: row(5, { starred: true }) },
      { index: 120, row: row(120) }, // structurally equal: a fresh clone from the worker
    ],
  });
  expect(next.rows).toBe(held.rows);
});

test('a full replacement (new mail on top) reuses the objects of rows that did not change', () => {
  const fresh = [row(99), ...rows(100, 49).map((r) => ({ ...r }))];
  const next = applyListPatch(held, { subscriptionId: 's1', total: 1001, offset: 100, rows: fresh });
  expect(next.total).toBe(1001);
  expect(next.rows[0]?.key).toBe('1:99');
  expect(next.rows[1]).toBe(held.rows[0]);
  expect(next.rows[49]).toBe(held.rows[48]);
});

test('a shrinking total trims rows beyond it', () => {
  const next = applyListPatch(held, { subscriptionId: 's1', total: 120, offset: 100, changed: [] });
  expect(next.rows).toHaveLength(20);
});

test('patches of another subscription change nothing', () => {
  expect(applyListPatch(held, { subscriptionId: 'old', total: 5, offset: 0, rows: [], complete: true })).toBe(held);
});

test('a new snapshot (moved window) keeps rows it shares with the previous one', () => {
  const moved = heldFromSnapshot({ subscriptionId: 's1', total: 1000, offset: 120, rows: rows(120, 50).map((r) => ({ ...r })), complete: true }, held);
  expect(moved.rows[0]).toBe(held.rows[20]);
  expect(rowAt(moved, 125)?.key).toBe('1:125');
  expect(rowAt(moved, 119)).toBeUndefined();
  expect(indexOfKey(moved, '1:130')).toBe(130);
  expect(indexOfKey(moved, '1:5')).toBe(-1);
});
