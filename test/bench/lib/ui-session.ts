/**
 * A browser session against the bench's gateway, as the browser scenarios (ui.ts, ui-bytes.ts)
 * drive it: the login screen as a person uses it, and the wait for the engine's first sync to
 * have filled IndexedDB.
 */
import type { Page } from 'playwright-core';
import type { Dataset } from './bench-env';
import { countStoredMessages, readProbe, ROW_SELECTOR, type BenchProbe } from './page-probes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The first screenful of rows: the first row-count change that reaches the most rows the
 * list showed within 2 s of its first real row (a virtual list shows what fits, ~20).
 */
export function firstScreen(probe: BenchProbe): { paintedAt: number; rows: number } | null {
  const first = probe.rows.find((change) => change.count > 0);
  if (!first) return null;
  const early = probe.rows.filter((change) => change.seenAt <= first.seenAt + 2000);
  const most = Math.max(...early.map((change) => change.count));
  const full = early.find((change) => change.count >= most)!;
  return { paintedAt: full.paintedAt ?? full.seenAt, rows: most };
}

/** Waits for the first screenful of rows (firstScreen) and says when its frame was done (ms since navigation start). */
export async function waitForScreen(page: Page, timeoutMs: number): Promise<{ paintedAt: number; rows: number }> {
  await page.locator(ROW_SELECTOR).first().waitFor({ timeout: timeoutMs });
  await sleep(2200); // let the 2 s window of firstScreen close
  const screen = firstScreen(await readProbe(page));
  if (!screen) throw new Error('no thread rows were painted');
  return screen;
}

/** The login screen as a person uses it; resolves right after the click on "Sign in". */
export async function signIn(page: Page, baseUrl: string, dataset: Dataset): Promise<void> {
  await page.goto(baseUrl);
  await page.getByLabel('Email address').fill(dataset.email, { timeout: 20_000 });
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password', { exact: true }).fill(dataset.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Polls IndexedDB until it holds `target` messages; the Node-clock time it was seen, or null on timeout. */
export async function waitForStored(page: Page, target: number, timeoutMs: number, everyMs = 500): Promise<{ at: number | null; stored: number }> {
  const deadline = performance.now() + timeoutMs;
  let stored = 0;
  while (performance.now() < deadline) {
    stored = await countStoredMessages(page);
    if (stored >= target) return { at: performance.now(), stored };
    await sleep(everyMs);
  }
  return { at: null, stored };
}
