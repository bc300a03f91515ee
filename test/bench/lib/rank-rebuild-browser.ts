/**
 * Runs rank-mailbox.ts in a dedicated worker of the run's Chromium, as the engine runs the
 * rebuild: off the page's main thread, over Chromium's IndexedDB. The worker is bundled here
 * with esbuild and served, with an empty page, from a made-up origin the page's routes answer
 * (IndexedDB needs an origin; no gateway is involved). Each step is timed in the worker, and
 * the CPU time Chromium's processes used during it is read from /proc: on a machine other
 * processes crowd, that is what the step would take alone (its work is one chain of steps:
 * the worker asks, the browser process's IndexedDB answers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { browser } from './browser';
import { processCpuMs } from './gateway-process';
import type { RankRebuild } from '../../../src-worker/mail-store/rank-rebuild';
import type { RankStep, RankStepResult } from './rank-mailbox';

const ORIGIN = 'http://ranks.bench.test';

/** CPU time (user + system, ms) of every Chromium process below this one, alive now. */
function chromiumCpuMs(): number {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const below = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, name] of names) {
    if (!/chrom/i.test(name) || !below(pid)) continue;
    try {
      total += processCpuMs(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export interface RankRebuildFigures {
  readonly fillMs: number;
  /** Wall time of each rebuild, in the worker. */
  readonly rebuildMs: readonly number[];
  /** Chromium's CPU time during each rebuild. */
  readonly rebuildCpuMs: readonly number[];
  /** The rebuild's read alone, wall time, and its CPU time. */
  readonly readMs: readonly number[];
  readonly readCpuMs: readonly number[];
  readonly rebuilt: RankRebuild;
}

export async function rankRebuildInChromium(count: number, runs: number): Promise<RankRebuildFigures> {
  const { outputFiles } = await esbuild.build({
    entryPoints: [path.join(import.meta.dirname, 'rank-mailbox.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  const script = outputFiles[0]!.text;
  const context = await (await browser()).newContext();
  try {
    const page = await context.newPage();
    await page.route(`${ORIGIN}/**`, (route) =>
      route.request().url().endsWith('/rank-worker.js')
        ? route.fulfill({ contentType: 'text/javascript', body: script })
        : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>rank rebuild</title>' }),
    );
    await page.goto(`${ORIGIN}/`);
    const step = async (request: RankStep) => {
      const cpuBefore = chromiumCpuMs();
      const result = (await page.evaluate(
        (message) =>
          new Promise((resolve, reject) => {
            const holder = globalThis as unknown as { rankWorker?: Worker };
            const worker = (holder.rankWorker ??= new Worker('/rank-worker.js', { type: 'module' }));
            worker.onmessage = (event) => resolve(event.data);
            worker.onerror = (event) => reject(new Error(event.message));
            worker.postMessage(message);
          }),
        request,
      )) as RankStepResult;
      if ('error' in result) throw new Error(`the rank rebuild's ${request.step} failed in Chromium: ${result.error}`);
      return { ...result, cpuMs: chromiumCpuMs() - cpuBefore };
    };
    const fill = await step({ step: 'fill', count });
    const figures = { rebuildMs: [] as number[], rebuildCpuMs: [] as number[], readMs: [] as number[], readCpuMs: [] as number[] };
    let rebuilt: RankRebuild = { messages: 0, addresses: 0 };
    for (let run = 0; run < runs; run++) {
      const rebuild = await step({ step: 'rebuild' });
      figures.rebuildMs.push(rebuild.ms);
      figures.rebuildCpuMs.push(rebuild.cpuMs);
      rebuilt = rebuild.rebuilt ?? rebuilt;
      const read = await step({ step: 'read' });
      figures.readMs.push(read.ms);
      figures.readCpuMs.push(read.cpuMs);
    }
    return { fillMs: fill.ms, ...figures, rebuilt };
  } finally {
    await context.close().catch(() => undefined);
  }
}
