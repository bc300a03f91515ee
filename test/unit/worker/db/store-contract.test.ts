import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { describeStoreContract } from './store-contract';

// A fresh fake IndexedDB per test: no state leaks between tests.
describeStoreContract('IndexedDB (fake-indexeddb)', () => idbStoreFactory(new IDBFactory()));
describeStoreContract('in memory', () => new MemoryDatabases());
