/**
 * Issue 13 point 1 and 8: bytes on the wire per cold load, as Chromium receives them.
 *
 * A fresh gateway and browser profile per run (nothing cached), the 10k mailbox: open the
 * app, sign in, and count every request of the page and of the SharedWorker (DevTools
 * Network events, lib/wire-bytes.ts) until the first inbox rows are painted — the cold
 * load of the mail screen — and then until the whole mailbox is in IndexedDB (the first
 * sync, all API JSON). Bytes are what crossed the wire, headers included; the notes give
 * the decoded size beside them, so what compression saves is read from one run.
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { newThrottledPage } from '../lib/browser';
import { GatewayProcess } from '../lib/gateway-process';
import { ROW_SELECTOR } from '../lib/page-probes';
import type { FigureSpec, Scenario } from '../lib/scenario';
import { recordWire, wireTotals, type WireRequest, type WireTotals } from '../lib/wire-bytes';
import { signIn, waitForStored } from '../lib/ui-session';

const FIRST_SCREEN_BYTES: FigureSpec = {
  key: '1.cold-load-wire',
  item: 1,
  what: 'Cold load of the mail screen: bytes on the wire, page + engine (open → sign in → first inbox rows, 10k mailbox)',
  unit: 'KB',
  budget: { text: 'none in §8 (issue 13: Roundcube 1.6 moves ≈ 280 KB of JS+CSS)' },
};
const FIRST_SCREEN_REQUESTS: FigureSpec = {
  key: '1.cold-load-requests',
  item: 1,
  what: 'Cold load of the mail screen: requests, page + engine (same span)',
  unit: 'requests',
  budget: { text: 'as few as the entry budget allows' },
};
const SYNC_BYTES: FigureSpec = {
  key: '1.first-sync-wire',
  item: 1,
  what: 'First sync of the 10k mailbox: API bytes on the wire (sign in → every message in IndexedDB)',
  unit: 'KB',
  budget: { text: 'none in §8' },
};

const isApi = (request: WireRequest) => new URL(request.url).pathname.startsWith('/api/');

/**
 * The SharedWorker's own script: DevTools reports it neither on the page nor on the worker
 * (fetched before the worker's target can be attached), so it is asked for once more from
 * Node with Chromium's Accept-Encoding, and counted as the request it was: the status line
 * and headers as sent plus the body.
 */
async function workerScriptRequest(page: Page, baseUrl: string): Promise<WireRequest> {
  const path = await page.evaluate(() => document.querySelector('meta[name="tern-worker"]')?.getAttribute('content') ?? null);
  if (!path) throw new Error('the page names no worker script');
  const url = `${baseUrl}${path}`;
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        const head = `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n` + response.rawHeaders.map((part, i) => (i % 2 ? `${part}\r\n` : `${part}: `)).join('') + '\r\n';
        const encoding = response.headers['content-encoding'] ?? null;
        const decoded = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
        resolve({ who: 'engine', url, type: 'Script (worker)', status: response.statusCode!, encoding, wireBytes: head.length + body.length, bodyBytes: decoded.length, doneAt: performance.now() });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** "412.3 KB in 23 requests (br 20, none 3); 1,530 KB decoded" */
function describe(totals: WireTotals): string {
  const encodings = Object.entries(totals.encodings).map(([name, count]) => `${name} ${count}`).join(', ');
  return `${totals.wireKB} KB in ${totals.requests} requests (${encodings}); ${totals.bodyKB} KB decoded`;
}

/** The static files of a load, largest first, as "app 64.1 KB br". */
function largestFiles(requests: readonly WireRequest[], count: number): string {
  return [...requests]
    .filter((request) => !isApi(request))
    .sort((a, b) => b.wireBytes - a.wireBytes)
    .slice(0, count)
    .map((request) => `${new URL(request.url).pathname.split('/').pop()!.replace(/-[A-Z0-9]{8}\.(js|css)$/, '.$1')} ${(request.wireBytes / 1024).toFixed(1)} KB${request.encoding ? ` ${request.encoding}` : ''}`)
    .join(', ');
}

export const uiBytes: Scenario = {
  id: 'ui-bytes',
  title: 'Browser: bytes on the wire per cold load and first sync (issue 13 points 1, 8)',
  estimateSec: 60,
  figures: [FIRST_SCREEN_BYTES, FIRST_SCREEN_REQUESTS, SYNC_BYTES],
  async run(ctx) {
    const dataset = await ctx.env.dataset('10k');
    const firstBytes: number[] = [];
    const firstRequests: number[] = [];
    const syncBytes: number[] = [];
    let firstNote = '';
    let syncNote = '';
    let details: Record<string, unknown> = {};
    // Bytes barely move between runs (a few headers); two runs show that they do not.
    const runs = ctx.quick ? 1 : 2;
    for (let run = 0; run < runs; run++) {
      const gateway = await GatewayProcess.start({ env: ctx.env, label: 'ui-bytes' });
      const tab = await newThrottledPage(1);
      const wire = await recordWire(tab.cdp, gateway.baseUrl);
      try {
        await signIn(tab.page, gateway.baseUrl, dataset);
        await tab.page.locator(ROW_SELECTOR).first().waitFor({ timeout: 30_000 });
        // data: URLs (the icon main.tsx sets) move nothing over the network.
        const firstScreen = [...wire.requests.filter((request) => request.url.startsWith('http')), await workerScriptRequest(tab.page, gateway.baseUrl)];
        if (!wire.engineAttached()) throw new Error('the engine (SharedWorker) was not attached: its requests would be missing');
        if ((await waitForStored(tab.page, dataset.seeded.messages, 90_000)).at === null) throw new Error('IndexedDB did not fill within 90 s');
        const api = wire.requests.filter(isApi);
        const first = wireTotals(firstScreen);
        const firstStatic = wireTotals(firstScreen.filter((request) => !isApi(request)));
        const firstApi = wireTotals(firstScreen.filter(isApi));
        const sync = wireTotals(api);
        firstBytes.push(first.wireKB);
        firstRequests.push(first.requests);
        syncBytes.push(sync.wireKB);
        ctx.progress(`run ${run + 1}: first screen ${describe(first)}; first sync ${describe(sync)}`);
        firstNote =
          `Fresh profile and gateway; Chromium's Network events of the page and its SharedWorker (encodedDataLength: headers + body as received). ` +
          `Static files ${describe(firstStatic)}; API ${describe(firstApi)}. Largest: ${largestFiles(firstScreen, 5)}. Deterministic but for headers: ${runs} run${runs === 1 ? '' : 's'}.`;
        syncNote = `${describe(sync)}, ${dataset.seeded.messages.toLocaleString('en')} messages; delta pages ${wireTotals(api.filter((request) => request.url.includes('/api/delta'))).wireKB} KB on the wire.`;
        details = {
          firstScreen: firstScreen.map(({ who, url, type, status, encoding, wireBytes, bodyBytes }) => ({ who, path: new URL(url).pathname, type, status, encoding, wireBytes, bodyBytes })),
          sync,
        };
      } finally {
        await wire.stop();
        await tab.close();
        await gateway.stop();
      }
    }
    ctx.record(FIRST_SCREEN_BYTES, { '1': firstBytes }, firstNote, details);
    ctx.record(FIRST_SCREEN_REQUESTS, { '1': firstRequests }, 'Every request that finished before the first rows were painted, page and engine (the websocket upgrade not counted: it never finishes).');
    ctx.record(SYNC_BYTES, { '1': syncBytes }, syncNote);
  },
};
