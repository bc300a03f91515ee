/**
 * Issue 6 item 1: what a first visit downloads, gzipped as a server would send it.
 * The UI entry is the module the page loads plus every chunk it imports statically
 * (esbuild splits shared code into chunks the entry cannot run without); chunks behind
 * `import()` are lazy and not counted. The worker is its one bundle. Read from the build
 * output (the run's own build, test/bench/.build/public/build/index.html names both),
 * each file gzipped with zlib at level 9.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUILD_DIR } from '../lib/bench-build';
import type { FigureSpec, Scenario } from '../lib/scenario';


const ENTRY: FigureSpec = {
  key: '1.ui-entry-gzip',
  item: 1,
  what: 'UI entry bundle, gzipped (entry module + its static imports)',
  unit: 'KB',
  budget: { text: '≤ 90 KB JS', limit: 90 },
};
const WORKER: FigureSpec = {
  key: '1.worker-gzip',
  item: 1,
  what: 'Worker bundle, gzipped',
  unit: 'KB',
  budget: { text: 'none in §8' },
};

const SERVICE_WORKER: FigureSpec = {
  key: '1.sw-in-entry-gzip',
  item: 1,
  what: 'Service worker code in the UI entry, gzipped (its registration and the worker itself)',
  unit: 'KB',
  budget: { text: 'adds nothing to the entry (issue 20)', limit: 0 },
};

/** Code only the service worker's side has: its registration (sw-registration.ts) and the worker (service-worker.ts). */
const SERVICE_WORKER_CODE = /serviceWorker\.register\(|__TERN_PRECACHE__/;

const gzipKB = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;

/** `/build/x.js` from the page → the file under public/build. */
const fileOf = (url: string) => path.join(BUILD_DIR, url.replace(/^\/build\//, ''));

/** Relative modules a built ES module imports statically (`import … from "./x.js"`, `import "./x.js"`, `export … from`). */
export function staticImports(source: string): string[] {
  const found = new Set<string>();
  const pattern = /\b(?:import|export)\s*(?:\{[^}]*\}|\*\s*as\s*[\w$]+|[\w$]+(?:\s*,\s*\{[^}]*\})?)?\s*(?:from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  for (const match of source.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

/** The module and everything it imports statically, transitively. */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) visit(path.resolve(path.dirname(file), specifier));
  };
  visit(entry);
  return [...seen];
}

function dynamicImports(files: readonly string[]): string[] {
  const lazy = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g)) lazy.add(path.resolve(path.dirname(file), match[1]!));
  }
  return [...lazy].filter((file) => !files.includes(file));
}

export const bundleSize: Scenario = {
  id: 'bundle-size',
  title: 'Bundle sizes (item 1)',
  estimateSec: 1,
  figures: [ENTRY, SERVICE_WORKER, WORKER],
  async run(ctx) {
    const page = readFileSync(path.join(BUILD_DIR, 'index.html'), 'utf8');
    const entryUrl = /<script type="module" src="([^"]+)"/.exec(page)?.[1];
    const workerUrl = /<meta name="tern-worker" content="([^"]+)"/.exec(page)?.[1];
    const cssUrl = /<link rel="stylesheet" href="([^"]+)"/.exec(page)?.[1];
    if (!entryUrl || !workerUrl) throw new Error('public/build/index.html names no entry module or worker: is the build current?');

    const closure = staticClosure(fileOf(entryUrl));
    const parts = closure.map((file) => ({ file: path.relative(BUILD_DIR, file), gzipKB: Math.round(gzipKB(file) * 10) / 10 }));
    const entryKB = parts.reduce((sum, part) => sum + part.gzipKB, 0);
    const entryAloneKB = parts[0]?.gzipKB ?? 0;
    const lazy = dynamicImports(closure).map((file) => ({ file: path.relative(BUILD_DIR, file), gzipKB: Math.round(gzipKB(file) * 10) / 10 }));
    const cssKB = cssUrl ? Math.round(gzipKB(fileOf(cssUrl)) * 10) / 10 : null;
    ctx.record(
      ENTRY,
      { '1': [entryKB] },
      `${parts[0]?.file} alone is ${entryAloneKB.toFixed(1)} KB; its ${parts.length - 1} static chunks add ${(entryKB - entryAloneKB).toFixed(1)} KB` +
        (cssKB !== null ? `; CSS ${cssKB} KB more` : '') +
        `; ${lazy.length} lazy chunk${lazy.length === 1 ? "" : "s"} (${lazy.reduce((s, l) => s + l.gzipKB, 0).toFixed(1)} KB) not counted. Deterministic: one run.`,
      { parts, lazy, cssGzipKB: cssKB },
    );
    // The service worker: registered from a lazy chunk after the first screen, the worker its own file (/sw.js).
    const holdsServiceWorkerCode = (file: string) => SERVICE_WORKER_CODE.test(readFileSync(file, 'utf8'));
    const swParts = closure.filter(holdsServiceWorkerCode);
    const registration = lazy.find((part) => staticClosure(path.join(BUILD_DIR, part.file)).some(holdsServiceWorkerCode));
    const registrationFile = registration && staticClosure(path.join(BUILD_DIR, registration.file)).find(holdsServiceWorkerCode);
    const swFileKB = Math.round(gzipKB(path.join(BUILD_DIR, 'sw.js')) * 10) / 10;
    ctx.record(
      SERVICE_WORKER,
      { '1': [swParts.reduce((sum, file) => sum + gzipKB(file), 0)] },
      (swParts.length ? `In the entry: ${swParts.map((file) => path.relative(BUILD_DIR, file)).join(', ')}` : 'No entry file holds service-worker code') +
        `; the registration (${registrationFile ? path.relative(BUILD_DIR, registrationFile) : 'not found'}) comes with ${registration ? `the lazy chunk ${registration.file}, outside the entry` : 'no lazy chunk of the entry'}; ` +
        `sw.js (precache list + worker) is ${swFileKB} KB, fetched by the browser on its own. Deterministic: one run.`,
    );
    const workerKB = gzipKB(fileOf(workerUrl));
    ctx.record(WORKER, { '1': [workerKB] }, `${path.relative(BUILD_DIR, fileOf(workerUrl))}; loads once per browser, off the page's main thread. Deterministic: one run.`);
  },
};
