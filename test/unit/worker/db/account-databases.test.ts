import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, test, vi } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { AccountDatabases, DATABASE_CHANNEL, type BroadcastPort } from '../../../../src-worker/db/account-databases';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { withRead, withWrite } from '../../../../src-worker/db/store';

/** A BroadcastChannel stand-in that records what is posted and lets the test deliver messages. */
function fakeChannel() {
  const listeners: ((event: MessageEvent) => void)[] = [];
  const posted: unknown[] = [];
  const port: BroadcastPort = {
    postMessage: (message) => void posted.push(message),
    addEventListener: (_type, listener) => void listeners.push(listener),
    close: () => {},
  };
  const deliver = (data: unknown) => listeners.forEach((listener) => listener(new MessageEvent('message', { data })));
  return { port, posted, deliver };
}

/** Leaves a database as a newer build would: at a version above ours. */
async function createNewerDatabase(factory: IDBFactory, name: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const request = factory.open(name, 25);
    request.onupgradeneeded = () => request.result.createObjectStore('FromTheFuture');
    request.onsuccess = () => (request.result.close(), resolve());
    request.onerror = () => reject(request.error);
  });
}

describe('AccountDatabases', () => {
  test('opens one database per account, named by its id, once', async () => {
    const factory = new IDBFactory();
    const databases = new AccountDatabases({ factory: idbStoreFactory(factory), tabId: 'tab-a', channel: fakeChannel().port });
    const [first, second] = await Promise.all([databases.open('7'), databases.open('7')]);
    expect(first).toBe(second);
    expect(first.name).toBe('7');
    expect((await factory.databases()).map((db) => db.name)).toEqual(['7']);
  });

  test('a version error deletes and recreates the database and tells other tabs', async () => {
    const factory = new IDBFactory();
    await createNewerDatabase(factory, '7');
    const channel = fakeChannel();
    const databases = new AccountDatabases({ factory: idbStoreFactory(factory), tabId: 'tab-a', channel: channel.port });
    const store = await databases.open('7');
    await withWrite(store, ['Thread'], (tx) => tx.put('Thread', { id: 't1' }));
    expect(await withRead(store, ['Thread'], (tx) => tx.count('Thread'))).toBe(1);
    expect((await factory.databases()).find((db) => db.name === '7')?.version).toBe(19);
    expect(channel.posted).toEqual([{ type: 'database-recreated', accountId: '7', tabId: 'tab-a' }]);
  });

  test('hearing another tab recreated a database drops our handle; our own message is ignored', async () => {
    const channel = fakeChannel();
    const onRecreatedElsewhere = vi.fn();
    const databases = new AccountDatabases({ factory: idbStoreFactory(new IDBFactory()), tabId: 'tab-a', channel: channel.port, onRecreatedElsewhere });
    const store = await databases.open('7');
    channel.deliver({ type: 'database-recreated', accountId: '7', tabId: 'tab-a' });
    channel.deliver({ type: 'something-else', accountId: '7' });
    expect(onRecreatedElsewhere).not.toHaveBeenCalled();
    channel.deliver({ type: 'database-recreated', accountId: '7', tabId: 'tab-b' });
    expect(onRecreatedElsewhere).toHaveBeenCalledWith('7');
    await vi.waitFor(() => expect(store.closeReason).toBe('version-change'));
    const reopened = await databases.open('7');
    expect(reopened).not.toBe(store);
    expect(reopened.closeReason).toBeNull();
  });

  test('two engines on a real BroadcastChannel: the recreation reaches the other one', async () => {
    const factory = new IDBFactory();
    await createNewerDatabase(factory, '9');
    let heard!: (accountId: string) => void;
    const recreated = new Promise<string>((resolve) => (heard = resolve));
    const other = new AccountDatabases({ factory: idbStoreFactory(factory), tabId: 'tab-b', channel: new BroadcastChannel(DATABASE_CHANNEL), onRecreatedElsewhere: heard });
    const databases = new AccountDatabases({ factory: idbStoreFactory(factory), tabId: 'tab-a', channel: new BroadcastChannel(DATABASE_CHANNEL) });
    await databases.open('9');
    expect(await recreated).toBe('9');
    await Promise.all([databases.closeAll(), other.closeAll()]);
  });

  test('removing an account closes its database as logged out and deletes it', async () => {
    const factory = new IDBFactory();
    const databases = new AccountDatabases({ factory: idbStoreFactory(factory), tabId: 'tab-a', channel: fakeChannel().port });
    const store = await databases.open('7');
    await databases.remove('7');
    const error = await withRead(store, ['Thread'], (tx) => tx.count('Thread')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TernError);
    expect(error).toMatchObject({ name: 'DatabaseClosed', detail: { reason: 'logged-out' } });
    expect(await factory.databases()).toEqual([]);
  });

  test('a reset empties the database; the next open starts fresh', async () => {
    const databases = new AccountDatabases({ factory: idbStoreFactory(new IDBFactory()), tabId: 'tab-a', channel: fakeChannel().port });
    await withWrite(await databases.open('7'), ['Thread'], (tx) => tx.put('Thread', { id: 't1' }));
    await databases.reset('7');
    expect(await withRead(await databases.open('7'), ['Thread'], (tx) => tx.count('Thread'))).toBe(0);
  });
});
