/**
 * Tern's spell checker on the demo (issue 14 point 5), one page load as Alice: a misspelt
 * word in the composer is marked through the CSS Custom Highlight API (read from
 * `CSS.highlights` in the page; the editor's DOM gets no spans), right-click → a suggestion
 * fixes it (undoable), Ctrl+. opens the same menu from the keyboard, "Add to dictionary"
 * stops a word being marked and puts it in the `spellWords` preference (Settings → Spell
 * checker lists it, and removes it). The message sent carries none of it. Screens at
 * 1366×768 and 390×844, light and dark. afterAll leaves Alice with no words and no message.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { photographThemes, screenshot, showScheme } from './chromium';
import { eventually, startLoggedIn, withImapOf, type Watched } from './demo-session';
import { composerForm } from './mail-page';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice } = demo;
const SUBJECT = `Spelling ${Date.now().toString(36)}`;
/** Made up, so no dictionary knows it. */
const NAME = 'Zorblaxi';

let browser: Browser;
let tab: Watched;
let page: Page;
/** Whether Alice's word list holds NAME now (afterAll removes it then, and only then). */
let wordAdded = false;

beforeAll(async () => {
  ({ browser, tab, page } = await startLoggedIn(baseUrl, alice, { viewport: { width: 1366, height: 768 } }));
});
afterAll(async () => {
  try {
    await withImapOf(demo.mail.host, demo.mail.imap, alice, async (client) => {
      for (const folder of ['INBOX', 'Sent', 'Drafts']) {
        const lock = await client.getMailboxLock(folder);
        try {
          const uids = (await client.search({ subject: SUBJECT }, { uid: true })) || [];
          if (uids.length > 0) await client.messageDelete(uids.join(','), { uid: true });
        } finally {
          lock.release();
        }
      }
    }).catch(() => undefined);
    // Leave Alice as she was: an empty personal word list (when a test failed between adding and removing).
    if (wordAdded) {
      await page.keyboard.press('Escape').catch(() => undefined);
      await page.goto(`${baseUrl}/settings/spell-checker`);
      const remove = page.getByRole('button', { name: `Remove ${NAME}`, exact: true });
      await remove.waitFor({ timeout: 5_000 }).catch(() => undefined);
      if (await remove.count()) {
        await remove.first().click();
        await remove.waitFor({ state: 'detached' });
      }
    }
  } finally {
    await browser?.close();
  }
});

/** The words the misspelt highlight marks now, in order. */
const marked = () =>
  page.evaluate(() => {
    const highlight = CSS.highlights.get('tern-misspelt');
    return highlight ? [...highlight].map((range) => range.toString()) : [];
  });

/** The middle of a marked word on screen. */
const markedAt = (word: string) =>
  page.evaluate((word) => {
    const range = [...(CSS.highlights.get('tern-misspelt') ?? [])].find((item) => item.toString() === word) as Range | undefined;
    const box = range?.getBoundingClientRect();
    return box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
  }, word);

test('a misspelt word is marked without a span; right-click → a suggestion fixes it, undoably; Ctrl+. opens the menu from the keyboard', async () => {
  await page.goto(`${baseUrl}/mail/unified/inbox`);
  await page.getByRole('button', { name: 'Compose', exact: true }).click();
  const box = composerForm(page);
  await box.waitFor();
  await box.getByRole('combobox', { name: 'To' }).fill(alice.email);
  await page.keyboard.press('Enter');
  await box.getByRole('textbox', { name: 'Subject' }).fill(SUBJECT);
  expect(await box.getByRole('combobox', { name: 'Spelling language', exact: true }).inputValue()).toBe('en');
  const body = box.getByRole('textbox', { name: 'Message body' });
  await body.click();
  await page.keyboard.type(`I recieve the kites on Friday, ${NAME} says. See https://exampel.test/pagez or mail bobb@exampel.test`);
  // The dictionary loads in the worker on first use; the URL and the address are never marked.
  await eventually(async () => ((await marked()).join() === `recieve,${NAME}` ? true : null), 15_000, 'recieve and the name marked');
  expect(await body.innerHTML()).not.toMatch(/<span|highlight|misspelt/i);

  const menu = page.getByRole('menu', { name: 'Spelling suggestions for recieve', exact: true });
  const rightClick = async () => {
    const point = await markedAt('recieve');
    expect(point).not.toBeNull();
    await page.mouse.click(point!.x, point!.y, { button: 'right' });
    await menu.getByRole('menuitem', { name: 'receive', exact: true }).waitFor();
  };
  // The menu closes when the window changes size (the word moves): opened again for each screen.
  for (const scheme of ['light', 'dark'] as const) {
    await showScheme(page, scheme);
    for (const [width, height] of [[390, 844], [1366, 768]] as const) {
      await page.setViewportSize({ width, height });
      await rightClick();
      await screenshot(page, `spell-menu-${width}-${scheme}`);
    }
  }
  await showScheme(page, 'light');
  await menu.getByRole('menuitem', { name: 'receive', exact: true }).click();
  await menu.waitFor({ state: 'detached' });
  await body.getByText(/^I receive the kites/).waitFor();
  await eventually(async () => ((await marked()).join() === NAME ? true : null), 5_000, 'only the name still marked');

  // Undo brings the slip back (the editor's own undo stack), and its mark with it.
  await page.keyboard.press('Control+z');
  await body.getByText(/^I recieve the kites/).waitFor();
  await eventually(async () => ((await marked()).join() === `recieve,${NAME}` ? true : null), 5_000, 'marked again after undo');

  // The keyboard: the caret in the word, Ctrl+. → the menu with the focus on its first item; Escape closes it, the composer stays.
  await page.evaluate(() => {
    const range = [...(CSS.highlights.get('tern-misspelt') ?? [])].find((item) => item.toString() === 'recieve') as Range;
    const caret = document.createRange();
    caret.setStart(range.startContainer, range.startOffset + 2);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(caret);
  });
  await page.keyboard.press('Control+.');
  await menu.waitFor();
  await eventually(() => menu.getByRole('menuitem', { name: 'receive', exact: true }).evaluate((item) => item === document.activeElement || null), 5_000, 'focus on the suggestion');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  await box.waitFor();
  await page.keyboard.press('Control+.');
  await menu.getByRole('menuitem', { name: 'receive', exact: true }).waitFor();
  await page.keyboard.press('Enter');
  await body.getByText(/^I receive the kites/).waitFor();
  expect(tab.errors).toEqual([]);
});

test('"Add to dictionary" stops the mark and keeps the word in the preference; the message sent has no highlight markup', async () => {
  const box = composerForm(page);
  const body = box.getByRole('textbox', { name: 'Message body' });
  const point = await markedAt(NAME);
  expect(point).not.toBeNull();
  await page.mouse.click(point!.x, point!.y, { button: 'right' });
  const menu = page.getByRole('menu', { name: `Spelling suggestions for ${NAME}`, exact: true });
  wordAdded = true;
  await menu.getByRole('menuitem', { name: 'Add to dictionary', exact: true }).click();
  await eventually(async () => ((await marked()).length === 0 ? true : null), 10_000, 'no mark left');

  await page.keyboard.press('Control+Enter');
  await box.waitFor({ state: 'detached', timeout: 20_000 });
  const source = await eventually(
    () =>
      withImapOf(demo.mail.host, demo.mail.imap, alice, async (client) => {
        const lock = await client.getMailboxLock('INBOX');
        try {
          const uids = (await client.search({ subject: SUBJECT }, { uid: true })) || [];
          if (uids.length === 0) return null;
          const message = await client.fetchOne(String(uids[0]), { source: true }, { uid: true });
          return message && message.source ? message.source.toString('utf8') : null;
        } finally {
          lock.release();
        }
      }),
    25_000,
    'the message delivered',
  );
  expect(source).toContain('I receive the kites');
  expect(source).toContain(NAME);
  expect(source).not.toMatch(/highlight|misspelt|tern-spell/i);
  expect(await body.count()).toBe(0);
  expect(tab.errors).toEqual([]);
});

test('Settings → Spell checker: the default language, and the word list where the added word is removed', async () => {
  await page.goto(`${baseUrl}/settings/spell-checker`);
  const remove = page.getByRole('button', { name: `Remove ${NAME}`, exact: true });
  await remove.waitFor();
  expect(await page.getByRole('combobox', { name: 'Check spelling in', exact: true }).first().inputValue()).toBe('auto');
  await photographThemes(page, 'spell-settings');
  await remove.click();
  await remove.waitFor({ state: 'detached' });
  await page.getByRole('status').filter({ hasText: `${NAME} removed.` }).waitFor();
  wordAdded = false;
  expect(tab.errors).toEqual([]);
});
