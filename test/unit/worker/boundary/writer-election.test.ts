import { describe, expect, test } from 'vitest';
import { electWriter, soleWriter, WRITER_LOCK, type LockManagerLike } from '../../../../src-worker/boundary/writer-election';

/** Exclusive locks granted in request order, as navigator.locks does. */
function fakeLocks() {
  const held = new Set<string>();
  const waiting: { name: string; grant: () => void; signal?: AbortSignal }[] = [];
  const requested: string[] = [];
  const next = (name: string) => {
    const index = waiting.findIndex((entry) => entry.name === name);
    if (index >= 0) waiting.splice(index, 1)[0]?.grant();
  };
  const locks: LockManagerLike = {
    request(name, options, callback) {
      requested.push(name);
      return new Promise((resolve, reject) => {
        const grant = () => {
          held.add(name);
          callback({ name }).then(resolve, reject).finally(() => {
            held.delete(name);
            next(name);
          });
        };
        if (!held.has(name)) return grant();
        const entry = { name, grant, signal: options.signal };
        waiting.push(entry);
        options.signal?.addEventListener('abort', () => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(new DOMException('The request was aborted.', 'AbortError'));
        });
      });
    },
  };
  return { locks, requested, held };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('writer election', () => {
  test('a SharedWorker engine is the writer at once', async () => {
    const role = soleWriter();
    await role.elected;
    expect(role.isWriter).toBe(true);
  });

  test('the first engine to ask becomes the writer; the next takes over when it goes', async () => {
    const { locks, requested } = fakeLocks();
    const first = electWriter({ locks });
    const second = electWriter({ locks });
    await first.elected;
    await tick();
    expect(requested).toEqual([WRITER_LOCK, WRITER_LOCK]);
    expect([first.isWriter, second.isWriter]).toEqual([true, false]);
    first.resign(); // the tab closed: the browser releases its lock
    await second.elected;
    expect([first.isWriter, second.isWriter]).toEqual([false, true]);
  });

  test('an engine that resigns while waiting is never elected and does not block the others', async () => {
    const { locks } = fakeLocks();
    const errors: unknown[] = [];
    const first = electWriter({ locks, onError: (error) => errors.push(error) });
    const quitter = electWriter({ locks, onError: (error) => errors.push(error) });
    const third = electWriter({ locks, onError: (error) => errors.push(error) });
    await first.elected;
    quitter.resign();
    first.resign();
    await third.elected;
    expect([quitter.isWriter, third.isWriter]).toEqual([false, true]);
    expect(errors).toEqual([]);
  });
});
