/**
 * What the benchmark looks at inside the page. Installed with `addInitScript`, so it is in
 * place before the app's first line runs, on every navigation (a reload is a warm start).
 *
 * "Painted" is approximated the standard way: the DOM change is seen by a MutationObserver
 * (the microtask after React's commit), then a requestAnimationFrame callback runs before
 * the next frame, and a message posted from it arrives after that frame was produced.
 * Times are `performance.now()` in the page: milliseconds since the navigation started.
 */
import type { Page } from 'playwright-core';

/** Thread rows with content (placeholders are aria-disabled). */
export const ROW_SELECTOR = '#thread-list[role="listbox"] [role="option"]:not([aria-disabled="true"])';

export interface RowChange {
  /** Real rows in the DOM after the change. */
  readonly count: number;
  /** When the observer saw it (ms since navigation start). */
  readonly seenAt: number;
  /** When the frame showing it was done (ms since navigation start), once known. */
  paintedAt?: number;
}

export interface BenchProbe {
  /** Every change of the number of real thread rows, in order. */
  rows: RowChange[];
  /** Set by `markClick`: when the user's click/keypress under measurement happened. */
  marks: Record<string, number>;
}

declare global {
  interface Window {
    __bench?: BenchProbe;
  }
}

/**
 * The init script. Kept as plain JavaScript text: functions handed to playwright from code
 * that tsx compiled carry esbuild's `__name` helper, which does not exist in the page.
 */
const INSTALL = (rowSelector: string) => `(() => {
  const probe = { rows: [], marks: {} };
  window.__bench = probe;
  const afterPaint = (done) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      channel.port2.postMessage(0);
    });
  probe.afterPaint = afterPaint;
  // Resolves with { seenAt, paintedAt } once predicate() holds (checked on every DOM change
  // and every frame, for what mutations do not show, like an iframe finishing its load).
  probe.until = (predicate, timeoutMs = 15000) =>
    new Promise((resolve, reject) => {
      let done = false;
      const finish = () => {
        done = true;
        observer.disconnect();
        clearTimeout(timer);
        const seenAt = performance.now();
        afterPaint((paintedAt) => resolve({ seenAt, paintedAt }));
      };
      const test = () => {
        if (done) return;
        let ok = false;
        try {
          ok = Boolean(predicate());
        } catch {
          ok = false;
        }
        if (ok) finish();
      };
      const observer = new MutationObserver(test);
      observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, characterData: true });
      const poll = () => {
        test();
        if (!done) requestAnimationFrame(poll);
      };
      const timer = setTimeout(() => {
        if (done) return;
        done = true;
        observer.disconnect();
        reject(new Error('timed out waiting for ' + predicate.toString().slice(0, 200)));
      }, timeoutMs);
      test();
      if (!done) requestAnimationFrame(poll);
    });
  let last = 0;
  const check = () => {
    const count = document.querySelectorAll(${JSON.stringify(rowSelector)}).length;
    if (count === last) return;
    last = count;
    const change = { count, seenAt: performance.now() };
    probe.rows.push(change);
    afterPaint((at) => (change.paintedAt = at));
  };
  const start = () => new MutationObserver(check).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-disabled'] });
  if (document.documentElement) start();
  else document.addEventListener('readystatechange', start, { once: true });
  // The moment of a user action: capture phase, before any handler of the app.
  for (const type of ['click', 'keydown', 'input']) {
    window.addEventListener(type, (event) => (probe.marks[type + ':' + (event.key ?? '')] = event.timeStamp), { capture: true });
  }
})();`;

export async function installProbes(page: Page): Promise<void> {
  await page.addInitScript({ content: INSTALL(ROW_SELECTOR) });
}

export interface PaintTiming {
  /** When the condition was first seen true (ms since navigation start). */
  readonly seenAt: number;
  /** When the frame showing it was done. */
  readonly paintedAt: number;
}

/**
 * Arms a watch for a condition (a JavaScript expression evaluated in the page), runs
 * `action` (a click, a key press, a message sent), and resolves when the frame showing the
 * condition is done. Arming first means a fast app cannot finish before we look.
 */
export async function paintAfter(page: Page, condition: string, action: () => Promise<unknown>, timeoutMs = 15_000): Promise<PaintTiming> {
  await page.evaluate(`(() => { window.__bench.pending = window.__bench.until(() => (${condition}), ${timeoutMs}); window.__bench.pending.catch(() => {}); })()`);
  await action();
  return (await page.evaluate('window.__bench.pending')) as PaintTiming;
}

/** The page's time origin (epoch ms), to put page times and Node times on one clock. */
export async function pageTimeOrigin(page: Page): Promise<number> {
  return (await page.evaluate('performance.timeOrigin')) as number;
}

export async function readProbe(page: Page): Promise<BenchProbe> {
  return (await page.evaluate('JSON.parse(JSON.stringify(window.__bench ?? { rows: [], marks: {} }))')) as BenchProbe;
}

/**
 * Messages stored in the page origin's IndexedDB: the `Message` table of every database
 * that has one (the worker keeps one database per account). Opened without a version and
 * closed at once, so the worker's connection is never blocked.
 */
export async function countStoredMessages(page: Page): Promise<number> {
  return countStored(page, 'Message');
}

/** Rows of an object store over every IndexedDB database of the page's origin (e.g. MessageBody: bodies kept). */
export async function countStored(page: Page, store: string): Promise<number> {
  return (await page.evaluate(`(${COUNT_ROWS})(${JSON.stringify(store)})`)) as number;
}

const COUNT_ROWS = `async (store) => {
  const open = (name) =>
    new Promise((resolve) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onupgradeneeded = () => {
        request.transaction?.abort(); // never create a database the worker has not
        resolve(null);
      };
    });
  let total = 0;
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue;
    const db = await open(info.name);
    if (!db) continue;
    try {
      if (!db.objectStoreNames.contains(store)) continue;
      total += await new Promise((resolve, reject) => {
        const request = db.transaction(store, 'readonly').objectStore(store).count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    } finally {
      db.close();
    }
  }
  return total;
}`;
