// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { MAIL_EVENTS } from '../../../src-ui/kit/mail-events';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, press, renderApp, step, typeInto, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

test('the sender name is set per account from the settings dropdown, stored through the engine, and shown in the sidebar and in From', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(view.container.querySelectorAll('#thread-list [role="option"]').length).toBeGreaterThan(2));
  const settingsButton = byRole(view.container, 'button', 'Settings');
  await click(settingsButton);
  await click(byRole(view.container, 'menuitem', /^Sender name/));
  const dialog = await waitFor(() => byRole(view.container, 'dialog', 'Sender name'));
  const alice = byRole(dialog, 'textbox', 'Sender name for alice@tern.test') as HTMLInputElement;
  const bob = byRole(dialog, 'textbox', 'Sender name for bob@kite.test') as HTMLInputElement;
  // Empty: the gateway's name is the placeholder and the hint says it is used.
  expect(alice.value).toBe('');
  expect(dialog.textContent).toContain(`Left empty: “${alice.placeholder}”`);
  await waitFor(() => expect(document.activeElement).toBe(alice));
  await typeInto(alice, '  Alice   Tern  (work) ');
  expect(dialog.textContent).toContain('Mail goes out as “Alice Tern (work) <alice@tern.test>”.');
  await click(byRole(dialog, 'button', 'Save'));
  await waitFor(() => expect(view.container.querySelector('[role="dialog"]')).toBeNull());
  // Only the changed account was written; focus is back on the settings button.
  expect(engine.calls.filter((call) => call.method === 'accounts.setDisplayName')).toEqual([{ method: 'accounts.setDisplayName', params: { accountId: '1001', displayName: '  Alice   Tern  (work) ' } }]);
  expect(document.activeElement).toBe(settingsButton);
  expect(bob.value).toBe('');
  // The sidebar names the account by it too (the gateway's name only where none is set).
  const sidebarName = (email: string) => byRole(byRole(view.container, 'navigation', 'Mailboxes'), 'region', email).querySelector('.account-toggle-name')?.textContent;
  await waitFor(() => expect(sidebarName('alice@tern.test')).toBe('Alice Tern (work)'));
  expect(sidebarName('bob@kite.test')).toBe(bob.placeholder);
  // The account menu names the account by it at once (it read the gateway's name before: the walkthrough's stale menu).
  await click(byRole(view.container, 'button', /^Account:/));
  const accountMenu = byRole(view.container, 'menu', /^Account:/);
  expect(byRole(accountMenu, 'menuitemradio', /alice@tern\.test/).textContent).toContain('Alice Tern (work)');
  await press('Escape', {}, document.activeElement ?? document.body);
  await waitFor(() => expect(view.container.querySelector('[role="menu"]')).toBeNull());

  // The composer's From carries it.
  await step(() => window.dispatchEvent(new CustomEvent(MAIL_EVENTS.compose, { detail: { accountId: '1001' } })));
  // (a <select>: two accounts to send from)
  const from = () => view.container.querySelector<HTMLSelectElement>('select.tern-from-select');
  await waitFor(() => expect(from()?.selectedOptions[0]?.textContent).toBe('Alice Tern (work) <alice@tern.test>'));
  // Escape closes the dialog without saving, and only the dialog (the composer stays).
  await click(settingsButton);
  await click(byRole(view.container, 'menuitem', /^Sender name/));
  const again = await waitFor(() => byRole(view.container, 'dialog', 'Sender name'));
  await press('Escape', {}, byRole(again, 'textbox', 'Sender name for bob@kite.test'));
  await waitFor(() => expect(view.container.querySelector('[role="dialog"]')).toBeNull());
  expect(engine.calls.filter((call) => call.method === 'accounts.setDisplayName')).toHaveLength(1);
  expect(from()).not.toBeNull();
});
