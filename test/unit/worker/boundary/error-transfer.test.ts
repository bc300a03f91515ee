import { expose, proxy, wrap, type Remote } from 'comlink';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { registerErrorTransfer } from '../../../../shared/error-transfer';
import type { Service } from '../../../../shared/worker-api';
import { createEngine } from '../../../../src-worker/engine';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';

// The real comlink boundary, in-process over a MessageChannel (STYLE.md item 16). Both
// "sides" share this realm, so one registration serves the worker and the tab.
beforeAll(() => registerErrorTransfer());

const channels: MessageChannel[] = [];
function connect<T>(api: T): Remote<T> {
  const channel = new MessageChannel();
  channels.push(channel);
  expose(api, channel.port1);
  return wrap<T>(channel.port2);
}
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

interface Thrower {
  tern(): Promise<never>;
  plain(): Promise<never>;
  value(): Promise<never>;
  unknownName(): Promise<never>;
}
const thrower: Thrower = {
  tern: async () => {
    throw new TernError('FolderNotFound', { detail: { folderId: 'f1' }, requestId: 'w_1' });
  },
  plain: async () => {
    throw new RangeError('out of range');
  },
  value: async () => {
    throw { code: 7 };
  },
  // A newer engine may know a name this tab's catalogue does not.
  unknownName: async () => {
    throw Object.assign(new TernError('FolderNotFound'), { name: 'FromTheFuture' });
  },
};

async function caught(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('errors across the comlink boundary', () => {
  test('a TernError thrown in the worker arrives as a TernError with its name, detail and request id', async () => {
    const error = await caught(connect(thrower).tern());
    expect(error).toBeInstanceOf(TernError);
    expect(error).toMatchObject({ name: 'FolderNotFound', message: 'The folder could not be found.', detail: { folderId: 'f1' }, requestId: 'w_1' });
    expect((error as TernError).status).toBe(404);
  });

  test('other errors keep their name and message; thrown values pass as they are', async () => {
    const plain = await caught(connect(thrower).plain());
    expect(plain).toBeInstanceOf(Error);
    expect(plain).not.toBeInstanceOf(TernError);
    expect(plain).toMatchObject({ name: 'RangeError', message: 'out of range' });
    expect(await caught(connect(thrower).value())).toEqual({ code: 7 });
  });

  test('a name the tab does not know becomes InternalServerError, never free text', async () => {
    const error = await caught(connect(thrower).unknownName());
    expect(error).toBeInstanceOf(TernError);
    expect((error as TernError).name).toBe('InternalServerError');
  });

  test('works for nested services of the engine', async () => {
    const tab = connect(createEngine({ stores: new MemoryDatabases(), fetch: async () => new Response(null, { status: 503 }) }));
    const error = await caught(tab.accounts.remove({ accountId: '404' }));
    expect(error).toBeInstanceOf(TernError);
    expect(error).toMatchObject({ name: 'AccountNotFound', detail: { accountId: '404' } });
  });

  test('a proxied nested service throws the same way', async () => {
    const tab = connect({ inner: proxy(thrower) as Service<Thrower> });
    expect(await caught(tab.inner.tern())).toBeInstanceOf(TernError);
  });
});
