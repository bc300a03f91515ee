import { describe, expect, test } from 'vitest';
import { compactUidSet, expandUidSet } from '../../../../src-server/imap/uid-set';

describe('UID sets', () => {
  test('compact runs, in any input order, without duplicates or non-UIDs', () => {
    expect(compactUidSet([9, 1, 2, 3, 5, 7, 8, 3, 0, -1, 1.5])).toBe('1:3,5,7:9');
    expect(compactUidSet([])).toBe('');
  });
  test('expand what ESEARCH returns', () => {
    expect(expandUidSet('1:3,5,9:7')).toEqual([1, 2, 3, 5, 7, 8, 9]);
    expect(() => expandUidSet('1:*')).toThrow();
  });
});
