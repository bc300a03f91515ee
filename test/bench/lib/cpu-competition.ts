/**
 * Busy-loop child processes beside Chromium: the way to slow the engine too. DevTools
 * throttles a page's CPU but refuses a SharedWorker ("only supported for pages"), so the 4×
 * figures have the engine running at full speed; processes spinning on every core take the
 * CPU from the page and from the worker's process alike.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';

/** Runs `fn` with `perCore` spinning processes per core; they are killed (by pid) when it ends, however it ends. */
export async function withBusyLoops<T>(perCore: number, fn: () => Promise<T>): Promise<T> {
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stop);
  try {
    for (let i = 0; i < os.availableParallelism() * perCore; i++) children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    return await fn();
  } finally {
    stop();
    process.off('exit', stop);
  }
}
