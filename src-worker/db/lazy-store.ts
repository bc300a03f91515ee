import type { DatabaseSchema } from './schema';
import type { LocalStore, StoreFactory } from './store';

/**
 * A database opened on first use and reopened after it was closed under us (another tab
 * upgraded or deleted it). Services take this getter instead of an open store, so a
 * worker that never needs the database never opens it.
 */
export function lazyStore<T extends string>(factory: StoreFactory, name: string, schema: DatabaseSchema<T>): () => Promise<LocalStore<T>> {
  let current: LocalStore<T> | null = null;
  let opening: Promise<LocalStore<T>> | null = null;
  return async () => {
    if (current && current.closeReason === null) return current;
    // Concurrent callers share one open.
    opening ??= factory
      .open(name, schema)
      .then((store) => (current = store))
      .finally(() => (opening = null));
    return opening;
  };
}
