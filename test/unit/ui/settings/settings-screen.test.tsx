// @vitest-environment happy-dom
/**
 * The Settings screen: built pages only, deep links, keyboard (arrow keys in the page list,
 * Escape back to mail), the app-wide preferences going to the engine and coming back from
 * another device without a reload, the language following them, and the paywall of a
 * gated preference.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { createMailApp } from '../../../../src-ui/app/App';
import { accountSettingsAtom } from '../../../../src-ui/state/settings-atoms';
import { createFakeEngine } from '../fake-mail-engine';
import { byRole, click, memoryStorage, press, renderApp, unmountAll, waitFor } from '../render-app';
import { FakeSettings } from './fake-settings';

afterEach(unmountAll);

function engineWith(settings: FakeSettings) {
  return Object.assign(createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] }), { settings });
}

/** A radio of a group by its value (byRole matches explicit roles only). */
const radio = (container: HTMLElement, name: string, value: string) => {
  const found = container.querySelector<HTMLInputElement>(`input[type="radio"][name="${name}"][value="${value}"]`);
  if (!found) throw new Error(`No ${name} radio ${value}`);
  return found;
};

/** The spell checker page's switches, one per account, once shown. */
const spellSwitches = (container: HTMLElement) =>
  waitFor(() => {
    const found = [...container.querySelectorAll<HTMLInputElement>('input[role="switch"]')];
    expect(found).toHaveLength(2);
    return found;
  });

const navLinks = (container: HTMLElement) => [...byRole(container, 'navigation', 'Settings pages').querySelectorAll('a')];

test('the page list shows the built pages only; arrow keys move in it; a page has its own address; Escape goes back to mail', async () => {
  const view = await renderApp({ engine: engineWith(new FakeSettings({ '1001': {}, '1002': {} })), path: '/settings' });
  const links = await waitFor(() => {
    const found = navLinks(view.container);
    expect(found.length).toBeGreaterThan(0);
    return found;
  });
  expect(links.map((link) => link.textContent)).toEqual(['General', 'Identity', 'Signatures', 'Templates', 'Email alias', 'Priority inbox', 'Forwarding', 'Notifications', 'Blocklist and allowlist', 'Manage senders', 'Auto reply', 'Business-hours auto reply', 'Auto clean', 'Spell checker', 'Filters', 'Email actions', 'Labels', 'Contacts', 'Security', 'Sessions', 'Apps', 'Plan']);
  // One Tab stop: the first page; arrows, Home and End move the focus and the stop.
  expect(links.map((link) => link.tabIndex)).toEqual(links.map((_, index) => (index === 0 ? 0 : -1)));
  links[0]!.focus();
  await press('ArrowDown');
  expect(document.activeElement).toBe(links[1]);
  await press('End');
  expect(document.activeElement).toBe(links.at(-1));
  expect(links.map((link) => link.tabIndex)).toEqual(links.map((_, index) => (index === links.length - 1 ? 0 : -1)));
  await click(links.at(-1)!);
  await waitFor(() => expect(view.pathname()).toBe('/settings/plan'));
  await waitFor(() => expect(byRole(view.container, 'heading', 'Plan')).toBeTruthy());
  expect(links.at(-1)!.getAttribute('aria-current')).toBe('page');
  await press('Escape', {}, byRole(view.container, 'heading', 'Plan'));
  await waitFor(() => expect(view.pathname()).toBe('/mail/unified/inbox'));
});

test('a page not built has no address', async () => {
  const view = await renderApp({ engine: engineWith(new FakeSettings({ '1001': {} })), path: '/settings/tracking' });
  await waitFor(() => expect(view.container.textContent).toContain('Nothing here'));
});

test('the theme chosen in General goes to the primary account; a change from another browser shows without a reload', async () => {
  const settings = new FakeSettings({ '1001': {}, '1002': {} });
  const storage = memoryStorage();
  const view = await renderApp({ engine: engineWith(settings), path: '/settings/general', storage });
  const dark = await waitFor(() => radio(view.container, 'theme', 'dark'));
  await click(dark);
  await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  expect(settings.updates).toEqual([{ accountId: '1001', values: { theme: 'dark' } }]);
  expect(storage.getItem('tern.theme')).toBe('dark'); // the boot cache for the next first paint
  // Another browser of alice's chooses light and the list view: this tab follows at once.
  settings.fromElsewhere('1001', { theme: 'light', viewMode: 'list' });
  await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
  expect(radio(view.container, 'view', 'list').checked).toBe(true);
  expect(storage.getItem('tern.view')).toBe('list');
  // Bob is not primary: his theme does not change the app.
  settings.fromElsewhere('1002', { theme: 'dark' });
  await waitFor(() => expect(view.app.state.store.get(accountSettingsAtom)?.['1002']?.preferences.theme).toBe('dark'));
  expect(document.documentElement.dataset.theme).toBe('light');
});

test('before the engine has heard from the gateway (revision 0), the boot cache keeps the theme: no flash to the default', async () => {
  const settings = new FakeSettings({ '1001': {} });
  const view = await renderApp({ engine: engineWith(settings), path: '/settings/general', storage: memoryStorage({ 'tern.theme': 'dark' }) });
  await waitFor(() => expect(radio(view.container, 'theme', 'dark').checked).toBe(true));
  expect(document.documentElement.dataset.theme).toBe('dark');
});

test('the language preference of the primary account switches the UI to German', async () => {
  const settings = new FakeSettings({ '1001': {} });
  const engine = engineWith(settings);
  // renderApp fixes English; here the app takes its language from the preference, as the page does.
  const app = createMailApp(engine, { history: createMemoryHistory({ initialEntries: ['/settings/general'] }), preferences: { storage: memoryStorage() } });
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(<app.MailApp />));
  try {
    await waitFor(() => byRole(container, 'heading', 'Settings'));
    settings.fromElsewhere('1001', { language: 'de' });
    await waitFor(() => byRole(container, 'heading', 'Einstellungen'));
    expect(byRole(container, 'navigation', 'Einstellungsseiten').textContent).toContain('Rechtschreibprüfung');
  } finally {
    act(() => root.unmount());
    app.state.stop();
    container.remove();
  }
});

test('a free account: the spell checker switch shows the paywall, changes nothing, and links to the Plan page', async () => {
  const settings = new FakeSettings({ '1001': { plan: 'free' }, '1002': {} });
  const view = await renderApp({ engine: engineWith(settings), path: '/settings/spell-checker' });
  const switches = await spellSwitches(view.container);
  // Off, as the composer is without the feature (the stored choice is on).
  expect(switches[0]!.checked).toBe(false);
  await click(switches[0]);
  const paywall = await waitFor(() => byRole(view.container, 'dialog', 'Spell checker'));
  expect(paywall.textContent).toContain('Spell checker is not included in your plan.');
  expect(settings.updates).toEqual([]);
  expect(switches[0]!.checked).toBe(false);
  await click(byRole(paywall, 'link', 'See your plan'));
  await waitFor(() => expect(view.pathname()).toBe('/settings/plan'));
  await waitFor(() => expect(view.container.querySelector('[role="dialog"]')).toBeNull());
  // Bob's plan includes it: his switch changes his preference.
  await waitFor(() => byRole(view.container, 'heading', 'Plan'));
  expect(view.container.textContent).toContain('Plan: Free');
});

test('a paid account turns spell checking off for itself', async () => {
  const settings = new FakeSettings({ '1001': {}, '1002': {} });
  const view = await renderApp({ engine: engineWith(settings), path: '/settings/spell-checker' });
  const switches = await spellSwitches(view.container);
  await click(switches[1]);
  await waitFor(() => expect(settings.updates).toEqual([{ accountId: '1002', values: { spellCheck: false } }]));
  await waitFor(() => expect(switches[1]!.checked).toBe(false));
});

test('the toolbar settings menu has All settings, which opens the Settings screen', async () => {
  const view = await renderApp({ engine: engineWith(new FakeSettings({ '1001': {}, '1002': {} })), path: '/mail/1001/1001' });
  await click(await waitFor(() => byRole(view.container, 'button', 'Settings')));
  await click(byRole(view.container, 'menuitem', 'All settings'));
  await waitFor(() => expect(view.pathname()).toBe('/settings'));
});
