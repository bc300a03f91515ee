/**
 * Builds of the app for the unit tests that read one (build.test.ts, first-screen-preload.test.ts,
 * ui/entry-budget.test.ts): `node build.mjs` into the run's builds directory (support/builds-dir.ts,
 * removed after the run). The default build without precompressed copies is the same for all of
 * them, so it is made once per worker and shared — the unit files share one worker
 * (vitest.config.ts), and a build costs seconds of both cores. Read a shared build; never change it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const run = promisify(execFile);

/** A test that builds: a build takes ~10 s on a quiet machine and over a minute when the 2 cores are shared many ways. */
export const BUILD_TEST_TIMEOUT_MS = 180_000;
const ROOT = join(import.meta.dirname, '..', '..', '..');

/** A build of its own with `build.mjs` arguments (`--brand=kite`, `--no-precompress`); resolves to its output directory. */
export async function buildApp(...args: string[]): Promise<string> {
  const out = await mkdtemp(join(inject('unitBuildsDir'), 'build-'));
  await run(process.execPath, ['build.mjs', '--no-install', `--out=${out}`, ...args], { cwd: ROOT });
  return out;
}

let shared: Promise<string> | undefined;

/** The default brand's build without precompressed copies, made once per worker. */
export function sharedDefaultBuild(): Promise<string> {
  return (shared ??= buildApp('--no-precompress'));
}
