// @vitest-environment happy-dom
/**
 * The sidebar's folder tree as one Tab stop: only the mailbox shown is tabbable, arrows
 * move focus (which takes the tab stop along), Right/Left close and open accounts and
 * folders with subfolders, Space opens a folder; search results mark no folder current.
 */
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from '../fake-mail-engine';
import { byRole, press, renderApp, step, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

const treeItems = (nav: HTMLElement) => [...nav.querySelectorAll<HTMLElement>('[data-tree-key]')];
const tabbable = (nav: HTMLElement) => treeItems(nav).filter((item) => item.tabIndex === 0);
const focusedLabel = () => (document.activeElement as HTMLElement | null)?.querySelector('.nav-label, .account-toggle-email')?.textContent;

async function open(path: string) {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
  const view = await renderApp({ engine, path });
  const nav = await waitFor(() => byRole(view.container, 'navigation', 'Mailboxes'));
  const alice = byRole(nav, 'region', 'alice@tern.test');
  await waitFor(() => expect(alice.querySelectorAll('a.nav-item').length).toBe(10));
  await waitFor(() => expect(byRole(nav, 'region', 'bob@kite.test').querySelectorAll('a.nav-item').length).toBeGreaterThan(0));
  return { view, nav, alice };
}

test('one Tab stop: the folder shown; arrows move focus and the tab stop with it', async () => {
  const { view, nav, alice } = await open('/mail/1001/1001');
  const inbox = byRole(alice, 'link', /^Inbox/);
  expect(tabbable(nav)).toEqual([inbox]);
  expect(inbox.getAttribute('aria-current')).toBe('page');

  inbox.focus();
  await press('ArrowDown');
  expect(focusedLabel()).toBe('Drafts');
  expect(tabbable(nav)).toEqual([document.activeElement]);
  await press('ArrowUp');
  await press('ArrowUp');
  expect(focusedLabel()).toBe('alice@tern.test');
  await press('Home');
  expect(focusedLabel()).toBe('All inboxes');
  await press('End');
  expect(treeItems(nav).at(-1)).toBe(document.activeElement);
  expect(tabbable(nav)).toHaveLength(1);

  // Space opens the focused folder, as Enter does; the mailbox's folder is then the tab stop.
  const drafts = byRole(alice, 'link', /^Drafts/);
  drafts.focus();
  await press(' ');
  await waitFor(() => expect(view.pathname()).toBe(`/mail/1001/${drafts.getAttribute('href')!.split('/').at(-1)}`));
  await waitFor(() => expect(drafts.getAttribute('aria-current')).toBe('page'));
  expect(tabbable(nav)).toEqual([drafts]);
});

test('Left and Right close and open folders with subfolders and accounts', async () => {
  const { nav, alice } = await open('/mail/1001/1001');
  const projects = byRole(alice, 'link', /^Projects/);
  expect(projects.getAttribute('aria-expanded')).toBe('true');
  projects.focus();
  await press('ArrowRight');
  expect(focusedLabel()).toBe('2026');
  await press('ArrowLeft');
  expect(document.activeElement).toBe(projects);
  await press('ArrowLeft');
  expect(projects.getAttribute('aria-expanded')).toBe('false');
  expect(alice.textContent).not.toContain('2026');
  await press('ArrowRight');
  expect(alice.textContent).toContain('2026');

  // Left from a top-level folder goes to its account; Left again closes it, Right opens it.
  await press('ArrowDown');
  await press('ArrowDown');
  expect(focusedLabel()).toBe('Receipts');
  await press('ArrowLeft');
  const toggle = alice.querySelector<HTMLButtonElement>('.account-toggle')!;
  expect(document.activeElement).toBe(toggle);
  await press('ArrowLeft');
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(alice.querySelectorAll('a.nav-item')).toHaveLength(0);
  // The folder shown is hidden now: the focused account button keeps the tab stop.
  expect(tabbable(nav)).toEqual([toggle]);
  await press('ArrowRight');
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  await waitFor(() => expect(alice.querySelectorAll('a.nav-item').length).toBe(10));
});

test('leaving the tree gives the tab stop back to the folder shown', async () => {
  const { nav, alice } = await open('/mail/1001/1001');
  const inbox = byRole(alice, 'link', /^Inbox/);
  inbox.focus();
  await press('ArrowDown');
  expect(tabbable(nav)[0]).not.toBe(inbox);
  const compose = byRole(nav, 'button', /Compose/);
  await step(() => compose.focus());
  expect(tabbable(nav)).toEqual([inbox]);
});

test('search results mark no folder current; the folder searched in keeps the tab stop', async () => {
  const { nav, alice } = await open('/mail/1001/1001?q=invoice');
  const inbox = byRole(alice, 'link', /^Inbox/);
  expect(nav.querySelector('[aria-current]')).toBeNull();
  expect(nav.querySelector('.nav-item.is-active')).toBeNull();
  expect(tabbable(nav)).toEqual([inbox]);
});
