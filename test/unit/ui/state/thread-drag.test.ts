import { describe, expect, test } from 'vitest';
import type { ThreadRow } from '../../../../shared/worker-mail-api';
import { refOf } from '../../../../src-ui/state/thread-list/selection';
import { carriesThreads, draggedThreads, droppedThreads, THREAD_DRAG_TYPE } from '../../../../src-ui/state/thread-list/thread-drag';

const row = (threadId: string, accountId = '7') => ({ key: `${accountId}:${threadId}`, accountId, threadId }) as ThreadRow;

describe('dragging conversations onto a label (thread-drag.ts)', () => {
  test('a checked row carries every checked row; an unchecked one only itself; a drop reads them back, junk as none', () => {
    const [a, b, c] = [row('1'), row('2'), row('3', '8')];
    const selection = new Map([a, c].map((one) => [one.key, refOf(one)]));
    expect(draggedThreads(a, selection)).toEqual([refOf(a), refOf(c)]);
    expect(draggedThreads(b, selection)).toEqual([refOf(b)]);
    expect(droppedThreads(JSON.stringify(draggedThreads(a, selection)))).toEqual([refOf(a), refOf(c)]);
    expect(droppedThreads('not json')).toEqual([]);
    expect(droppedThreads(JSON.stringify([{ key: 1 }, refOf(b)]))).toEqual([refOf(b)]);
    expect(carriesThreads(['text/plain', THREAD_DRAG_TYPE])).toBe(true);
    expect(carriesThreads(['Files'])).toBe(false);
  });
});
