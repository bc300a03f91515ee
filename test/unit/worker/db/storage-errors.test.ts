import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { toStorageError } from '../../../../src-worker/db/storage-errors';
import { withWrite } from '../../../../src-worker/db/store';

afterEach(() => vi.restoreAllMocks());

describe('storage failures in our own words', () => {
  test('browser errors map to catalogue errors', () => {
    expect(toStorageError(new DOMException('full', 'QuotaExceededError'), '7', null)).toMatchObject({ name: 'QuotaExceeded', detail: { database: '7' } });
    expect(toStorageError(new DOMException('The database connection is closing.', 'InvalidStateError'), '7', null)).toMatchObject({
      name: 'DatabaseClosed',
      detail: { reason: 'closed' },
    });
    expect(toStorageError(new DOMException('gone', 'AbortError'), '7', 'logged-out')).toMatchObject({ name: 'DatabaseClosed', detail: { reason: 'logged-out' } });
    expect(toStorageError(new DOMException('bad key', 'DataError'), '7', null)).toMatchObject({ name: 'DatabaseError', detail: { cause: 'DataError' } });
    const own = new TernError('QuotaExceeded');
    expect(toStorageError(own, '7', null)).toBe(own);
  });

  test('a full disk during a write reaches the caller as QuotaExceeded', async () => {
    const store = await idbStoreFactory(new IDBFactory()).open('7', MAIL_SCHEMA);
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const error = await withWrite(store, ['Log'], (tx) => tx.put('Log', { id: 'local-1', timestamp: 1 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TernError);
    expect((error as TernError).name).toBe('QuotaExceeded');
  });
});
