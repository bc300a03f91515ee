import { afterAll, beforeAll, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { folderLink, logInBoth, newDemoContext, watch } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
let browser: Browser;
beforeAll(async () => { browser = await launchChromium(); });
afterAll(async () => browser?.close());

test('stale rows', async () => {
  const { page, mail } = watch(await (await newDemoContext(browser)).newPage());
  await logInBoth(page, baseUrl, demo.alice, demo.bob);
  for (const [email, folder] of [[demo.alice.email, 'Spam'], [demo.bob.email, 'Newsletters'], [demo.alice.email, 'Inbox'], [demo.bob.email, 'Spam']] as const) {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as any).__seen = seen;
      const old = document.getElementById('thread-list');
      const observer = new MutationObserver(() => {
        const list = document.getElementById('thread-list');
        if (list && list !== old) seen.push(`${location.pathname} ${list.getAttribute('aria-label')} busy=${list.getAttribute('aria-busy')} rows=${[...list.querySelectorAll('[role=option]:not([aria-disabled=true])')].map((r) => r.id.split(':')[0]).join(',')}`);
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    console.log(await page.getByRole('navigation', { name: 'Mailboxes' }).evaluate((nav) => nav.innerText));
    await page.screenshot({ path: `/tmp/scratch/stale-${folder}.png` });
    await folderLink(page, email, folder).click();
    await page.waitForTimeout(1500);
    const seen: string[] = await page.evaluate(() => (window as any).__seen);
    console.log(email, folder, '\n' + [...new Set(seen)].slice(0, 6).join('\n'));
  }
  void mail;
});
