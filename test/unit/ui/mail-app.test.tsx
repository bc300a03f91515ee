// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { avatarHue } from '../../../shared/avatar-hue';
import { MAIL_EVENTS } from '../../../src-ui/kit/mail-events';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, press, renderApp, step, typeInto, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];
const keyOf = (row: HTMLElement | undefined) => row?.id.slice('thread-'.length);
const runs = (engine: ReturnType<typeof createFakeEngine>) => engine.calls.filter((call) => call.method === 'commands.run').map((call) => call.params);

async function openInbox(path = '/mail/1001/1001', loggedIn = ['alice@tern.test', 'bob@kite.test']) {
  const engine = createFakeEngine({ loggedIn });
  const view = await renderApp({ engine, path });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  return view;
}

test('the sidebar: unified inbox, every account with its hue and unread count, folders special first and nested', async () => {
  const view = await openInbox('/mail/unified/inbox');
  const nav = byRole(view.container, 'navigation', 'Mailboxes');
  await waitFor(() => expect(byRole(nav, 'link', /^All inboxes/).textContent).toMatch(/\d+ unread/));
  const alice = byRole(nav, 'region', 'alice@tern.test');
  const avatar = alice.querySelector<HTMLElement>('.avatar')!;
  expect(avatar.style.getPropertyValue('--avatar-hue')).toBe(String(avatarHue('alice@tern.test')));
  await waitFor(() => expect(alice.querySelectorAll('a.nav-item').length).toBe(10));
  const folders = [...alice.querySelectorAll<HTMLElement>('a.nav-item')].map((link) => `${link.style.getPropertyValue('--depth')}:${link.querySelector('.nav-label')?.textContent}`);
  expect(folders).toEqual(['0:Inbox', '0:Drafts', '0:Sent', '0:Archive', '0:Spam', '0:Trash', '0:Projects', '1:2026', '0:Receipts', '0:Travel']);
  const inboxUnread = (await view.engine.mail.counts({ accountIds: ['1001', '1002'] })).reduce((sum, count) => sum + count.inboxUnread, 0);
  expect(byRole(nav, 'link', /^All inboxes/).textContent).toContain(String(inboxUnread));
  expect(byRole(nav, 'link', /^All inboxes/).getAttribute('aria-current')).toBe('page');
  // Collapsing an account hides its folders; the button says it.
  const toggle = alice.querySelector<HTMLButtonElement>('.account-toggle')!;
  await click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(alice.querySelectorAll('a.nav-item')).toHaveLength(0);
});

test('the brand of the build is in the shell', async () => {
  const view = await openInbox();
  expect(view.container.querySelector('.sidebar-brand-name')?.textContent).toBe('Tern Mail');
});

test('keyboard: j/k move, Enter opens and reads, e archives, s stars, Shift+I/U, # deletes, x selects', async () => {
  const view = await openInbox();
  const { engine } = view;
  const list = listbox(view.container);
  list.focus();
  await press('j', {}, list);
  await press('j', {}, list);
  await press('k', {}, list);
  expect(list.getAttribute('aria-activedescendant')).toBe(rows(view.container)[1]!.id);
  const second = keyOf(rows(view.container)[1])!;
  await press('Enter', {}, list);
  expect(view.search().thread).toBe(second);
  await waitFor(() => byRole(view.container, 'region', 'Conversation'));
  const threadId = second.split(':')[1];

  await press('s', {}, list);
  await press('I', { shiftKey: true }, list);
  await press('U', { shiftKey: true }, list);
  expect(runs(engine).slice(-3)).toEqual([
    { kind: 'star', accountId: '1001', threadIds: [threadId], starred: expect.any(Boolean) },
    { kind: 'markRead', accountId: '1001', threadIds: [threadId], read: true },
    { kind: 'markRead', accountId: '1001', threadIds: [threadId], read: false },
  ]);

  const third = keyOf(rows(view.container)[2])!;
  await press('e', {}, list);
  // The archive, then (the next thread opened) its mark as read.
  expect(runs(engine).slice(-2)).toContainEqual({ kind: 'archive', accountId: '1001', threadIds: [threadId] });
  await waitFor(() => expect(rows(view.container).some((row) => keyOf(row) === second)).toBe(false));
  // The next (older) thread opens in its place, as Gmail's auto-advance.
  expect(view.search().thread).toBe(third);
  await waitFor(() => byRole(view.container, 'status', /Conversation archived/));
  await press('u', {}, list);
  expect(view.search().thread).toBeUndefined();

  await press('x', {}, list);
  await press('j', {}, list);
  await press('x', {}, list);
  expect(rows(view.container).filter((row) => row.getAttribute('aria-selected') === 'true')).toHaveLength(2);
  await press('#', { shiftKey: true }, list);
  expect(runs(engine).at(-1)).toMatchObject({ kind: 'trash', accountId: '1001' });
  expect((runs(engine).at(-1) as { threadIds: string[] }).threadIds).toHaveLength(2);
});

test('keys are not shortcuts while typing; / focuses search, ? opens the shortcuts dialog, Escape closes it', async () => {
  const view = await openInbox();
  await press('/', {}, document.body);
  const search = byRole(view.container, 'searchbox', 'Search mail') as HTMLInputElement;
  expect(document.activeElement).toBe(search);
  const before = runs(view.engine).length;
  await press('e', {}, search);
  expect(runs(view.engine)).toHaveLength(before);

  await press('?', { shiftKey: true }, document.body);
  const dialog = byRole(view.container, 'dialog', 'Keyboard shortcuts');
  expect(dialog.getAttribute('aria-modal')).toBe('true');
  expect(dialog.textContent).toContain('Archive');
  expect(document.activeElement).toBe(byRole(dialog, 'button', 'Close'));
  await press('Escape', {}, document.activeElement!);
  expect(view.container.querySelector('[role="dialog"]')).toBeNull();
});

test('c, r, a and f are announced as events for the composer and the conversation view', async () => {
  const view = await openInbox();
  const seen: { type: string; detail: unknown }[] = [];
  for (const name of Object.values(MAIL_EVENTS)) window.addEventListener(name, (event) => seen.push({ type: event.type, detail: (event as CustomEvent).detail }));
  const list = listbox(view.container);
  list.focus();
  await press('c', {}, list);
  await press('r', {}, list);
  await press('a', {}, list);
  await press('f', {}, list);
  const first = keyOf(rows(view.container)[0])!.split(':');
  expect(seen).toEqual([
    { type: 'tern:compose', detail: { accountId: '1001' } },
    { type: 'tern:reply', detail: { accountId: first[0], threadId: first[1] } },
    { type: 'tern:reply-all', detail: { accountId: first[0], threadId: first[1] } },
    { type: 'tern:forward', detail: { accountId: first[0], threadId: first[1] } },
  ]);
});

test('the toolbar acts on the selection: one command per account; "Move to" lists the account’s folders', async () => {
  const view = await openInbox('/mail/unified/inbox');
  const { engine } = view;
  const toolbar = byRole(view.container, 'toolbar', 'Conversation actions');
  expect((byRole(toolbar, 'button', 'Archive') as HTMLButtonElement).disabled).toBe(true);
  const list = rows(view.container);
  const alice = list.find((row) => keyOf(row)!.startsWith('1001:'))!;
  const bob = list.find((row) => keyOf(row)!.startsWith('1002:'))!;
  // Row elements belong to list positions, not threads: keep the keys, not the elements.
  const [aliceKey, bobKey] = [keyOf(alice)!, keyOf(bob)!];
  await click(alice, { ctrlKey: true });
  await click(bob, { ctrlKey: true });
  // Two accounts: "Move to" offers the folders both have (unified-move.test.tsx).
  expect((byRole(toolbar, 'button', 'Move to folder') as HTMLButtonElement).disabled).toBe(false);
  await click(byRole(toolbar, 'button', 'Archive'));
  expect(runs(engine).slice(-2)).toEqual([
    { kind: 'archive', accountId: '1001', threadIds: [aliceKey.split(':')[1]] },
    { kind: 'archive', accountId: '1002', threadIds: [bobKey.split(':')[1]] },
  ]);

  const next = rows(view.container).find((row) => keyOf(row)!.startsWith('1001:'))!;
  const nextKey = keyOf(next)!;
  await click(next, { ctrlKey: true });
  await click(byRole(toolbar, 'button', 'Move to folder'));
  const menu = byRole(view.container, 'menu', 'Move to folder');
  expect(document.activeElement?.getAttribute('role')).toBe('menuitem');
  await click(byRole(menu, 'menuitem', '2026'));
  const projects2026 = (await engine.mail.listFolders({ accountId: '1001' })).find((folder) => folder.path === 'Projects/2026')!;
  expect(runs(engine).at(-1)).toEqual({ kind: 'move', accountId: '1001', threadIds: [nextKey.split(':')[1]], folderId: projects2026.id });
});

test('a failed command shows the catalogue message as a toast, and the row comes back', async () => {
  const view = await openInbox();
  view.engine.failNextCommand('archive', 'MailLockUnacquired');
  const list = listbox(view.container);
  list.focus();
  const first = keyOf(rows(view.container)[0]);
  await press('e', {}, list);
  await waitFor(() => byRole(view.container, 'alert', /The mailbox is busy\. Please try again\./));
  expect(byRole(view.container, 'alert', /Could not archive/)).toBeTruthy();
  await waitFor(() => expect(keyOf(rows(view.container)[0])).toBe(first));
  await click(byRole(view.container, 'button', 'Dismiss notification'));
});

test('search: typing produces a `search` scope over the account, or all accounts', async () => {
  const view = await openInbox();
  const { engine } = view;
  const subject = engine.threadsOf('1001', 'inbox')[0]!.subject;
  const word = subject.split(' ')[0]!;
  await typeInto(byRole(view.container, 'searchbox', 'Search mail') as HTMLInputElement, word);
  await waitFor(() => expect(view.search().q).toBe(word));
  await waitFor(() => expect(engine.calls.filter((call) => call.method === 'mail.watchThreadList').at(-1)?.params).toMatchObject({ scope: { kind: 'search', accountIds: ['1001'], query: word } }));
  expect(byRole(view.container, 'heading', 'Search results')).toBeTruthy();
  const scope = view.container.querySelector<HTMLSelectElement>('select[aria-label="Search in"]')!;
  await step(() => {
    scope.value = 'all';
    scope.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await waitFor(() => expect(view.search().in).toBe('all'));
  await waitFor(() => expect(engine.calls.filter((call) => call.method === 'mail.watchThreadList').at(-1)?.params).toMatchObject({ scope: { kind: 'search', accountIds: ['1001', '1002'] } }));
});

test('settings: theme (persisted) and the four views change the layout', async () => {
  const view = await openInbox();
  await click(byRole(view.container, 'button', 'Settings'));
  const menu = byRole(view.container, 'menu', 'Settings');
  expect(byRole(menu, 'menuitemradio', /System/).getAttribute('aria-checked')).toBe('true');
  await click(byRole(menu, 'menuitemradio', /Dark/));
  expect(document.documentElement.dataset.theme).toBe('dark');
  expect(view.storage.getItem('tern.theme')).toBe('dark');
  for (const [label, view_, pane] of [
    ['Split', 'split', 'bottom'],
    ['Single thread', 'single', 'replace'],
    ['List', 'list', 'replace'],
    ['Conversation', 'conversation', 'right'],
  ] as const) {
    await click(byRole(view.container, 'button', 'Settings'));
    await click(byRole(view.container, 'menuitemradio', new RegExp(`^${label}`)));
    expect(view.container.querySelector('.app-frame')?.getAttribute('data-view')).toBe(view_);
    expect(view.container.querySelector('.mailbox')?.className).toContain(`mailbox-pane-${pane}`);
    expect(view.storage.getItem('tern.view')).toBe(view_);
  }
});

test('single-thread view: opening a thread replaces the list, u goes back', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001', preferences: {} });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(3));
  await click(byRole(view.container, 'button', 'Settings'));
  await click(byRole(view.container, 'menuitemradio', /^Single thread/));
  await click(rows(view.container)[0]);
  await waitFor(() => byRole(view.container, 'button', 'Back to the list'));
  expect((view.container.querySelector('.mailbox-list') as HTMLElement).hidden).toBe(true);
  await press('u', {}, document.body);
  expect((view.container.querySelector('.mailbox-list') as HTMLElement).hidden).toBe(false);
});

test('the account menu switches accounts and logs one out; the other stays', async () => {
  const view = await openInbox('/mail/unified/inbox');
  await click(byRole(view.container, 'button', /^Account:/));
  const menu = byRole(view.container, 'menu', /^Account:/);
  await click(byRole(menu, 'menuitemradio', /Bob Okafor/));
  await waitFor(() => expect(view.pathname()).toBe('/mail/1002/2001'));
  expect(byRole(view.container, 'button', /^Account:/).getAttribute('aria-label')).toBe('Account: bob@kite.test');
  await click(byRole(view.container, 'button', /^Account:/));
  await click(byRole(view.container, 'menuitem', 'Log out of bob@kite.test'));
  await waitFor(() => expect(view.pathname()).toBe('/mail/unified/inbox'));
  await waitFor(() => expect(view.container.querySelector('section[aria-label="bob@kite.test"]')).toBeNull());
  expect(byRole(view.container, 'region', 'alice@tern.test')).toBeTruthy();
});

test('c opens the composer from the active account; r on the open thread opens a reply to it', async () => {
  const view = await openInbox();
  const list = listbox(view.container);
  list.focus();
  await press('c', {}, list);
  await waitFor(() => expect(view.container.querySelector('form.tern-composer')).not.toBeNull(), 5000);
  expect(view.container.querySelector('.tern-composer-title')?.textContent).toBe('New message');
  await click(view.container.querySelector('.tern-composer button[aria-label^="Close"]') ?? byRole(view.container.querySelector('.tern-composer')!, 'button', /Close|Discard/));
  await waitFor(() => expect(view.container.querySelector('form.tern-composer')).toBeNull());

  await click(rows(view.container)[0]);
  const subject = view.engine.threadsOf('1001', 'inbox')[0]!.subject;
  list.focus();
  await press('r', {}, list);
  await waitFor(() => expect(view.container.querySelector('.tern-composer-title')?.textContent).toBe(`Re: ${subject.replace(/^Re: /, '')}`), 5000);
});

test('sync status: offline and signed-out accounts are announced', async () => {
  const view = await openInbox();
  await step(() => view.engine.setSync('1002', 'signed-out'));
  await waitFor(() => byRole(view.container, 'alert', /Your session has ended\. Please log in again\. \(bob@kite\.test\)/));
  const again = byRole(view.container, 'link', 'Log in again');
  expect(again.getAttribute('href')).toBe('/login?add=1&email=bob%40kite.test');
  await step(() => view.engine.setSync('1001', 'offline'));
  await waitFor(() => byRole(view.container, 'status', /You’re offline/));
});

test('every control on the mail screen has a role and an accessible name', async () => {
  const view = await openInbox();
  await click(rows(view.container)[0]);
  await waitFor(() => byRole(view.container, 'region', 'Conversation'));
  const controls = [...view.container.querySelectorAll<HTMLElement>('button, a[href], input:not([hidden]), select, [role="option"], [role="listbox"], [role="toolbar"], nav, [role="menuitem"], [role="menuitemradio"]')];
  expect(controls.length).toBeGreaterThan(40);
  const unnamed = controls.filter((control) => {
    const name =
      control.getAttribute('aria-label') || control.getAttribute('aria-labelledby') || (control.id && view.container.querySelector(`label[for="${control.id}"]`)?.textContent) || control.textContent;
    return !name?.trim();
  });
  expect(unnamed.map((control) => control.outerHTML.slice(0, 120))).toEqual([]);
});
