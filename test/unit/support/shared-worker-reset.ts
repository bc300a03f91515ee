/**
 * Setup file of the unit project (vitest.config.ts), whose files run one after another in one
 * worker without isolation (`isolate: false`): a fresh process per file cost more start-up than
 * most files' tests. What a fresh worker gave every file for free is given back here, at the end
 * of each file: real timers, no stubbed globals, no stubbed env. (Mocks made with vi.spyOn are
 * restored between files by vitest itself.)
 *
 * Modules stay loaded from file to file, so a module must not keep state a test depends on; the
 * files run in path order (test/file-order.ts), so a leak shows the same way on every run.
 */
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
