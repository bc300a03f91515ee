import { describe, expect, test } from 'vitest';
import { compareUids, includesUid } from '../../../../src-server/mirror/folder-sync';

describe('comparing the server\'s UIDs with the mirror\'s', () => {
  test('missing on the mirror, gone from the server, in one walk over both ascending lists', () => {
    expect(compareUids([1, 2, 4, 7, 8, 9], [2, 3, 4, 5, 9])).toEqual({ missing: [1, 7, 8], gone: [3, 5] });
    expect(compareUids([], [1, 2])).toEqual({ missing: [], gone: [1, 2] });
    expect(compareUids([5, 6], [])).toEqual({ missing: [5, 6], gone: [] });
    // A server that names a UID twice still has it once.
    expect(compareUids([1, 2, 2, 3], [2])).toEqual({ missing: [1, 3], gone: [] });
  });

  test('membership by binary search', () => {
    const mirrored = [3, 8, 15, 16, 42, 1000];
    expect(mirrored.map((uid) => includesUid(mirrored, uid))).toEqual(mirrored.map(() => true));
    expect([0, 1, 9, 17, 999, 1001].some((uid) => includesUid(mirrored, uid))).toBe(false);
    expect(includesUid([], 1)).toBe(false);
  });
});
