/**
 * The build a run measures: its own copy, made at the start of the run with
 * `node build.mjs --out=test/bench/.build`, so another `node build.mjs` in the same tree
 * (which empties public/build/ first) cannot pull the files from under a running gateway.
 * It sits inside the repository so the gateway bundle resolves node_modules as usual.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/**
 * TERN_BENCH_BUILD: a build made beforehand (`node build.mjs --out=<dir> --no-install`, a
 * directory inside the repository), measured as it is and kept: two builds, two runs, the
 * same load — an A/B comparison of a change without rebuilding between runs.
 */
const PREBUILT = process.env.TERN_BENCH_BUILD ? path.resolve(REPO_ROOT, process.env.TERN_BENCH_BUILD) : null;
export const BENCH_BUILD = PREBUILT ?? path.join(REPO_ROOT, 'test', 'bench', '.build');
/** What the gateway serves (TERN_PUBLIC_DIR). */
export const BENCH_PUBLIC = path.join(BENCH_BUILD, 'public');
export const BUILD_DIR = path.join(BENCH_PUBLIC, 'build');
export const GATEWAY_BUNDLE = path.join(BENCH_BUILD, 'dist', 'server', 'gateway.mjs');

/** Builds the production bundles into test/bench/.build and copies the static files beside them. */
export async function buildForBench(log: (line: string) => void): Promise<void> {
  if (PREBUILT) {
    if (!existsSync(GATEWAY_BUNDLE)) throw new Error(`TERN_BENCH_BUILD=${PREBUILT} holds no gateway bundle: build it with node build.mjs --out=<dir> --no-install`);
    copyStatic();
    log(`measuring the build in ${path.relative(REPO_ROOT, PREBUILT)} (TERN_BENCH_BUILD)`);
    return;
  }
  rmSync(BENCH_BUILD, { recursive: true, force: true });
  const started = performance.now();
  // Asynchronous, so Ctrl-C is handled at once (tsx SIGKILLs a script that does not answer a signal in 30 ms).
  const child = spawn(process.execPath, ['build.mjs', `--out=${BENCH_BUILD}`, '--no-install'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const result = { stdout: '', stderr: '', status: null as number | null };
  child.stdout.on('data', (chunk: Buffer) => (result.stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (result.stderr += chunk));
  result.status = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('exit', (code) => resolve(code));
  });
  if (result.status !== 0) {
    rmSync(BENCH_BUILD, { recursive: true, force: true });
    throw new Error(`node build.mjs --out=${BENCH_BUILD} failed:\n${result.stdout}\n${result.stderr}`);
  }
  copyStatic();
  log(`built the app for this run into ${path.relative(REPO_ROOT, BENCH_BUILD)} in ${Math.round(performance.now() - started)} ms`);
}

/** The static shell's other files (the online-status image …); the page template is the build's input. */
function copyStatic(): void {
  mkdirSync(BENCH_PUBLIC, { recursive: true });
  for (const entry of readdirSync(path.join(REPO_ROOT, 'public'), { withFileTypes: true })) {
    if (entry.name === 'build' || entry.name === 'index.html') continue;
    cpSync(path.join(REPO_ROOT, 'public', entry.name), path.join(BENCH_PUBLIC, entry.name), { recursive: true });
  }
}

/** Removes the run's build. */
export function removeBenchBuild(): void {
  if (PREBUILT) return;
  rmSync(BENCH_BUILD, { recursive: true, force: true });
}
