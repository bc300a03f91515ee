import { expect, test } from 'vitest';
import { OneRunPerKey } from '../../../../src-worker/net/one-run-per-key';

/** A run that waits until released, counting its passes. */
function gatedWork() {
  let passes = 0;
  let release = () => {};
  const work = () => {
    passes += 1;
    return new Promise<void>((resolve) => (release = resolve));
  };
  return { work, passes: () => passes, release: () => release() };
}

test('calls during a run join it and make exactly one more pass, however many came', async () => {
  const runs = new OneRunPerKey();
  const gate = gatedWork();
  const first = runs.run('a', gate.work);
  const second = runs.run('a', gate.work);
  const third = runs.run('a', gate.work);
  expect(second).toBe(first);
  expect(third).toBe(first);
  expect(gate.passes()).toBe(1);
  gate.release();
  await expect.poll(() => gate.passes()).toBe(2);
  gate.release();
  await first;
  expect(gate.passes()).toBe(2);
  // Done: the next call is a run of its own.
  const later = runs.run('a', gate.work);
  expect(later).not.toBe(first);
  gate.release();
  await later;
  expect(gate.passes()).toBe(3);
});

test('keys do not wait for each other', async () => {
  const runs = new OneRunPerKey();
  const a = gatedWork();
  const b = gatedWork();
  const runA = runs.run('a', a.work);
  const runB = runs.run('b', b.work);
  expect(runB).not.toBe(runA);
  b.release();
  await runB;
  expect([a.passes(), b.passes()]).toEqual([1, 1]);
  a.release();
  await runA;
});
