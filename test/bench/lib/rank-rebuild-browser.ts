/**
 * Runs rank-mailbox.ts in a dedicated worker of the run's Chromium, as the engine runs the
 * rebuild: off the page's main thread, over Chromium's IndexedDB. The worker is bundled here
 * with esbuild and served, with an empty page, from a made-up origin the page's routes answer
 * (IndexedDB needs an origin; no gateway is involved).
 */
import path from 'node:path';
import * as esbuild from 'esbuild';
import { browser } from './browser';
import type { RankBenchResult } from './rank-mailbox';

const ORIGIN = 'http://ranks.bench.test';

export async function rankRebuildInChromium(count: number, runs: number): Promise<RankBenchResult> {
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
    const result = (await page.evaluate(
      ({ count, runs }) =>
        new Promise((resolve, reject) => {
          const worker = new Worker('/rank-worker.js', { type: 'module' });
          worker.onmessage = (event) => resolve(event.data);
          worker.onerror = (event) => reject(new Error(event.message));
          worker.postMessage({ count, runs });
        }),
      { count, runs },
    )) as RankBenchResult | { error: string };
    if ('error' in result) throw new Error(`the rank rebuild failed in Chromium: ${result.error}`);
    return result;
  } finally {
    await context.close().catch(() => undefined);
  }
}
