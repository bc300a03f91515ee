/**
 * Auto clean end to end on the demo (issue 17 point 3): Settings → Auto clean, a rule made in
 * the form whose Preview says how many newsletters would move (bad input first: refused in
 * place, what was typed kept); saved on, then Run now — the log shows what moved with its
 * subjects, and Undo puts it back and says so. Photographed at 1366×768 and 390×844, light
 * and dark. Shared state is put back in afterAll (it runs even when a test fails): any run
 * of the rule undone, the rule deleted.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { photographThemes } from './chromium';
import { startLoggedIn, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const { alice } = inject('demo');
const RULE = 'E2E tidy newsletters';

let browser: Browser;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  ({ browser, tab, page } = await startLoggedIn(baseUrl, alice));
});

afterAll(async () => {
  if (page) {
    try {
      await page.goto(`${baseUrl}/settings/auto-clean`);
      await page.getByRole('heading', { name: 'Auto clean', level: 2 }).waitFor();
      await page.getByRole('heading', { name: 'What auto clean moved', level: 3 }).waitFor();
      const undo = page.locator('.auto-clean-run').filter({ hasText: RULE }).getByRole('button', { name: 'Undo', exact: true });
      while ((await undo.count()) > 0) {
        const before = await undo.count();
        await undo.first().click();
        await page.waitForFunction((count) => document.querySelectorAll('.auto-clean-undo').length < count, before);
      }
      const rule = page.getByRole('listitem', { name: RULE, exact: true });
      if (await rule.count()) {
        await rule.getByRole('button', { name: 'Delete', exact: true }).click();
        await rule.getByRole('button', { name: 'Delete', exact: true }).click();
        await rule.waitFor({ state: 'detached' });
      }
    } finally {
      await browser?.close();
    }
  } else await browser?.close();
});

const editor = () => page.locator('.auto-clean-editor');
const preview = () => editor().getByRole('status');

describe('auto clean', () => {
  test('a new rule: bad input refused in place; the preview counts the newsletters it would move', async () => {
    await page.goto(`${baseUrl}/settings/auto-clean`);
    await page.getByRole('heading', { name: 'Auto clean', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'New rule', exact: true }).click();
    await editor().getByLabel('Name (optional)', { exact: true }).fill(RULE);
    const age = editor().getByLabel('Older than (days)', { exact: true });
    await age.fill('0');
    await editor().getByRole('button', { name: 'Preview', exact: true }).click();
    await editor().getByText('Enter a whole number of days from 1 to 3,650.').waitFor();
    expect(await age.getAttribute('aria-invalid')).toBe('true');
    expect(await editor().getByLabel('Name (optional)', { exact: true }).inputValue()).toBe(RULE);

    // Newsletters older than a day (the demo's are weeks old): the preview names some of them.
    await age.fill('1');
    await editor().getByRole('button', { name: 'Preview', exact: true }).click();
    await preview().getByText(/messages? in Inbox would move to Trash\./).waitFor();
    const from = (await preview().locator('.auto-clean-from').first().textContent())!.trim();
    expect(from).toMatch(/@/);
    // One sender of them only: the run moves a few messages, not every newsletter of the demo.
    await editor().getByLabel('From (address or domain)', { exact: true }).fill(from);
    await editor().getByRole('button', { name: 'Preview', exact: true }).click();
    const count = await preview().getByText(/messages? in Inbox would move to Trash\./).textContent();
    expect(Number(/^(\d+)/.exec(count ?? '')?.[1])).toBeGreaterThan(0);
    await photographThemes(page, 'auto-clean-preview');
  });

  test('saved and turned on, Run now moves what the preview counted; the log shows it and Undo puts it back', async () => {
    const counted = Number(/^(\d+)/.exec((await preview().locator('.auto-clean-preview-count').textContent()) ?? '')?.[1]);
    await editor().getByLabel('Run every hour', { exact: true }).check();
    await editor().getByRole('button', { name: 'Save rule', exact: true }).click();
    const rule = page.getByRole('listitem', { name: RULE, exact: true });
    await rule.waitFor();
    expect(await rule.textContent()).toContain('On');

    await rule.getByRole('button', { name: 'Run now', exact: true }).click();
    const run = page.locator('.auto-clean-run').filter({ hasText: RULE }).first();
    await run.waitFor({ timeout: 20_000 });
    expect(await run.locator('.auto-clean-run-line').textContent()).toBe(`${counted === 1 ? '1 message' : `${counted} messages`} moved from INBOX to Trash`);
    expect(((await run.locator('.auto-clean-run-subjects').textContent()) ?? '').length).toBeGreaterThan(0);
    await photographThemes(page, 'auto-clean-log');

    await run.getByRole('button', { name: 'Undo', exact: true }).click();
    await run.getByText(`Undone: ${counted === 1 ? '1 message' : `${counted} messages`} put back.`).waitFor({ timeout: 20_000 });
    expect(tab.errors).toEqual([]);
  });
});
