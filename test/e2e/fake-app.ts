/**
 * Serves the fake-engine build of the app (fixtures/fake-app.tsx) to a Playwright page
 * from memory, on a made-up origin: no server, no network.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const FAKE_ORIGIN = 'http://tern.fake';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

export interface FakeAppBuild {
  readonly dir: string;
  dispose(): Promise<void>;
}

export async function buildFakeApp(): Promise<FakeAppBuild> {
  const dir = await mkdtemp(join(tmpdir(), 'tern-fake-app-'));
  await build({
    entryPoints: { app: join(import.meta.dirname, 'fixtures', 'fake-app.tsx') },
    bundle: true,
    format: 'esm',
    splitting: true,
    jsx: 'automatic',
    outdir: dir,
    minify: true,
    sourcemap: false,
    define: { __TERN_BRAND__: JSON.stringify('tern'), 'process.env.NODE_ENV': JSON.stringify('production') },
    logLevel: 'warning',
  });
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tern Mail</title><link rel="stylesheet" href="/fake/app.css"></head><body><div id="root"></div><script type="module" src="/fake/app.js"></script></body></html>`;

export interface FakePageOptions {
  readonly loggedIn?: readonly string[];
  readonly inboxThreads?: number;
  readonly partner?: string;
  readonly latencyMs?: number;
  /** localStorage before the app starts (theme, view). */
  readonly storage?: Readonly<Record<string, string>>;
}

/** Opens `path` of the fake app in the page. */
export async function openFakeApp(page: Page, bundle: FakeAppBuild, path: string, options: FakePageOptions = {}): Promise<void> {
  await page.route(`${FAKE_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith('/fake/')) {
      const file = join(bundle.dir, url.pathname.slice('/fake/'.length));
      try {
        await route.fulfill({ body: await readFile(file), contentType: TYPES[extname(file)] ?? 'application/octet-stream' });
      } catch {
        await route.fulfill({ status: 404, body: 'not found' });
      }
      return;
    }
    await route.fulfill({ body: PAGE, contentType: 'text/html' });
  });
  const { storage, ...engineOptions } = options;
  await page.addInitScript(
    ([fake, stored]) => {
      (window as { __TERN_FAKE__?: unknown }).__TERN_FAKE__ = fake;
      for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
    },
    [engineOptions, storage ?? {}] as const,
  );
  await page.goto(`${FAKE_ORIGIN}${path}`);
}

/** For a test file: a Chromium and the fake app's build, made before its tests and removed after them. */
export function useFakeAppBrowser(launch: () => Promise<Browser>): { readonly browser: Browser; readonly bundle: FakeAppBuild } {
  const held: { browser?: Browser; bundle?: FakeAppBuild } = {};
  beforeAll(async () => {
    [held.browser, held.bundle] = await Promise.all([launch(), buildFakeApp()]);
  });
  afterAll(async () => {
    await held.browser?.close();
    await held.bundle?.dispose();
  });
  return {
    get browser() {
      if (!held.browser) throw new Error('Chromium starts in beforeAll');
      return held.browser;
    },
    get bundle() {
      if (!held.bundle) throw new Error('The fake app is built in beforeAll');
      return held.bundle;
    },
  };
}
