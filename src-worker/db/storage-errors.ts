/**
 * Storage failures in our own words (STYLE.md item 10): callers branch on QuotaExceeded
 * or DatabaseClosed, never on a browser's DOMException names.
 */
import { TernError } from '../../shared/errors';
import { closedError, type CloseReason } from './store';

/**
 * Thrown when the stored database is newer than this build knows (IndexedDB's
 * VersionError). Internal to the db layer: the opener answers it by recreating.
 */
export class StoredVersionTooNewError extends Error {
  override readonly name = 'StoredVersionTooNewError';
  constructor(readonly database: string) {
    super(`The stored database ${database} is newer than this build.`);
  }
}

/**
 * Maps what IndexedDB (or idb) threw to a catalogue error. `closeReason` is the store's
 * own state: a request on a closed connection fails with InvalidStateError or AbortError.
 */
export function toStorageError(error: unknown, database: string, closeReason: CloseReason | null): unknown {
  if (error instanceof TernError || error instanceof StoredVersionTooNewError) return error;
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'QuotaExceededError') return new TernError('QuotaExceeded', { detail: { database } });
  if (closeReason !== null) return closedError(database, closeReason);
  if (name === 'InvalidStateError' && /clos/i.test(message)) return closedError(database, 'closed');
  return new TernError('DatabaseError', { detail: { database, cause: name || 'Error', message } });
}
