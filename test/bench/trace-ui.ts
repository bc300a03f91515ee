/**
 * Where an interaction's time goes on the page's main thread, from a Chromium trace:
 *
 *   TERN_BENCH_BUILD=<dir> tsx test/bench/trace-ui.ts [--dataset=10k] [--rate=1|4] [--runs=3]
 *
 * Signs in on a fresh gateway (the prebuilt bundles of TERN_BENCH_BUILD, see
 * lib/bench-build.ts), waits for the cache to fill, then traces a pasted search, j, e and
 * a click on a thread, and prints for each the main thread's tasks from the input event to
 * the frame that showed the result, with what filled them (script by file, style, layout,
 * paint, the worker's messages arriving). A tool for finding the split, not a budget.
 */
import { parseArgs } from 'node:util';
import type { CDPSession } from 'playwright-core';
import { BenchEnv, type DatasetName } from './lib/bench-env';
import { closeBrowser, newThrottledPage } from './lib/browser';
import { buildForBench } from './lib/bench-build';
import { GatewayProcess } from './lib/gateway-process';
import { installProbes, paintAfter, readProbe, ROW_SELECTOR } from './lib/page-probes';
import { signIn, waitForStored } from './lib/ui-session';
import { BODY_READY } from './scenarios/ui';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string };
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'toplevel', 'blink'].join(',');

async function traced(cdp: CDPSession, action: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const onData = (params: { value: unknown[] }) => void events.push(...(params.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await action();
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', onData);
  return events;
}

/** The renderer main thread's tasks after the first input event, summarised by what ran inside them. */
function summarise(events: TraceEvent[], startType: string, spanMs: number): string {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.name === 'EventDispatch'));
  if (!main) return 'no renderer main thread in the trace';
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const input = onMain.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === startType);
  if (!input) return `no ${startType} event in the trace`;
  const t0 = input.ts;
  const end = t0 + spanMs * 1000;
  const lines: string[] = [];
  const tasks = onMain.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.ts + (e.dur ?? 0) >= t0 - 1000 && e.ts <= end && (e.dur ?? 0) >= 300);
  for (const task of tasks) {
    const inside = onMain.filter((e) => e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0) && e !== task);
    const parts = new Map<string, number>();
    for (const e of inside) {
      let key: string | null = null;
      if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.callFunction') {
        const data = e.args?.data ?? {};
        const url = String(data.url ?? '').split('/').pop();
        key = `js ${data.functionName ?? ''}@${url}:${data.lineNumber ?? ''}`;
      } else if (['UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'Commit', 'HitTest', 'ParseHTML', 'MinorGC', 'MajorGC', 'V8.GCScavenger', 'FireAnimationFrame', 'EventDispatch', 'TimerFire', 'UpdateLayer', 'IntersectionObserverController::computeIntersections', 'ScheduleStyleRecalculation', 'InvalidateLayout'].includes(e.name)) {
        key = e.name === 'EventDispatch' ? `event ${e.args?.data?.type}` : e.name;
      }
      if (!key || !e.dur) continue;
      parts.set(key, (parts.get(key) ?? 0) + e.dur);
    }
    const top = [...parts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, us]) => `${k} ${(us / 1000).toFixed(1)}`);
    lines.push(`  +${((task.ts - t0) / 1000).toFixed(1).padStart(6)} ms  task ${((task.dur ?? 0) / 1000).toFixed(1).padStart(5)} ms  ${top.join(' | ')}`);
  }
  const frames = onMain.filter((e) => (e.name === 'BeginMainThreadFrame' || e.name === 'Commit') && e.ts >= t0 && e.ts <= end).map((e) => `${e.name === 'Commit' ? 'C' : 'F'}${((e.ts - t0) / 1000).toFixed(0)}`);
  lines.push(`  frames/commits: ${frames.join(' ')}`);
  return lines.join('\n');
}

async function main() {
  const { values } = parseArgs({ options: { dataset: { type: 'string', default: '10k' }, rate: { type: 'string', default: '1' }, runs: { type: 'string', default: '2' }, only: { type: 'string', default: 'search,j,e,open' } } });
  const log = (line: string) => console.log(line);
  const env = await BenchEnv.create(log);
  const only = new Set(values.only!.split(','));
  try {
    await buildForBench(log);
    const dataset = await env.dataset(values.dataset as DatasetName);
    const gateway = await GatewayProcess.start({ env, label: 'trace' });
    const tab = await newThrottledPage(1);
    const { page, cdp } = tab;
    try {
      await installProbes(page);
      await signIn(page, gateway.baseUrl, dataset);
      await page.locator(ROW_SELECTOR).first().waitFor({ timeout: 30_000 });
      const fill = await waitForStored(page, dataset.seeded.messages, 240_000, 2000);
      log(`stored ${fill.stored} messages`);
      await sleep(1500);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.rate) });
      const runs = Number(values.runs);
      const box = page.getByRole('searchbox', { name: 'Search mail' });
      const rowsNow = async () => (await page.evaluate(`[...document.querySelectorAll(${JSON.stringify(ROW_SELECTOR)})].map((el) => el.id).join(',')`)) as string;
      const words = ['invoice', 'review', 'contract', 'release', 'budget', 'meeting'];
      for (let i = 0; i < runs && only.has('search'); i++) {
        await box.fill('');
        await page.keyboard.press('Escape');
        await sleep(800);
        const before = await rowsNow();
        await box.focus();
        const word = words[i % words.length]!;
        let ms = 0;
        const events = await traced(cdp, async () => {
          const timing = await paintAfter(page, `(() => { if (new URLSearchParams(location.search).get('q') !== ${JSON.stringify(word)}) return false; if (document.querySelector('#thread-list')?.getAttribute('aria-busy') === 'true') return false; const ids = [...document.querySelectorAll(${JSON.stringify(ROW_SELECTOR)})].map((el) => el.id).join(','); return (ids.length > 0 && ids !== ${JSON.stringify(before)}) || Boolean(document.querySelector('.empty-state')); })()`, () => page.keyboard.insertText(word));
          ms = timing.paintedAt - ((await readProbe(page)).marks['input:'] ?? NaN);
          await sleep(200);
        });
        log(`search "${word}" pasted → painted ${ms.toFixed(1)} ms`);
        log(summarise(events, 'input', ms + 20));
      }
      await box.fill('');
      await page.keyboard.press('Escape');
      await sleep(800);
      await page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
      await page.keyboard.press('j'); // a cursor row to move from
      await sleep(300);
      const cursor = `document.querySelector('#thread-list .thread-row.is-cursor')?.id ?? null`;
      for (const key of ['j', 'e']) {
        if (!only.has(key)) continue;
        for (let i = 0; i < runs; i++) {
          const before = (await page.evaluate(cursor)) as string | null;
          const condition = key === 'j' ? `${cursor} !== ${JSON.stringify(before)}` : `!document.getElementById(${JSON.stringify(before)})`;
          let ms = 0;
          const events = await traced(cdp, async () => {
            const timing = await paintAfter(page, condition, () => page.keyboard.press(key));
            ms = timing.paintedAt - ((await readProbe(page)).marks[`keydown:${key}`] ?? NaN);
            await sleep(200);
          });
          log(`${key} → painted ${ms.toFixed(1)} ms`);
          log(summarise(events, 'keydown', ms + 20));
          await sleep(400);
        }
      }
      if (only.has('open')) {
        const ids = (await rowsNow()).split(',').slice(4, 4 + 2 * runs);
        for (const id of [...ids, ...ids]) {
          let ms = 0;
          const events = await traced(cdp, async () => {
            await page.evaluate(`window.__bench.seen = new WeakSet(document.querySelectorAll('.tern-message'))`);
            const timing = await paintAfter(page, BODY_READY, () => page.locator(`[id="${id}"]`).click());
            ms = timing.paintedAt - ((await readProbe(page)).marks['click:'] ?? NaN);
            await sleep(200);
          });
          log(`open ${id} → body painted ${ms.toFixed(1)} ms`);
          log(summarise(events, 'click', ms + 20));
          await sleep(400);
        }
      }
    } finally {
      await tab.close();
      await gateway.stop();
    }
  } finally {
    await closeBrowser();
    await env.close();
  }
}

void (async () => {
  try {
    await main();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
})();
