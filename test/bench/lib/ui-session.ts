/**
 * A browser session against the bench's gateway, as the browser scenarios (ui.ts, ui-bytes.ts)
 * drive it: the login screen as a person uses it, and the wait for the engine's first sync to
 * have filled IndexedDB.
 */
import type { Page } from 'playwright-core';
import type { Dataset } from './bench-env';
import { countStoredMessages } from './page-probes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
