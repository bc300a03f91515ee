// @vitest-environment happy-dom
/** The "Move to" menu: no Drafts, Sent (nor the folder shown); Escape in the menu `v` opened gives the list its focus back. */
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from '../fake-mail-engine';
import { byRole, press, renderApp, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];

test('v: the menu offers folders to move to (not Drafts, Sent or Inbox itself); Escape returns the focus to the list on the cursor row', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  const list = listbox(view.container);
  list.focus();
  await press('j', {}, list);
  const cursor = list.getAttribute('aria-activedescendant');
  expect(cursor).toBe(rows(view.container)[1]!.id);
  await press('v', {}, list);
  const menu = byRole(view.container, 'menu', 'Move to folder');
  const labels = [...menu.querySelectorAll('[role="menuitem"]')].map((item) => item.textContent?.trim());
  expect(labels).toContain('Receipts');
  expect(labels).toContain('Archive');
  for (const absent of ['Drafts', 'Sent', 'Inbox']) expect(labels).not.toContain(absent);
  expect(menu.contains(document.activeElement)).toBe(true);

  await press('Escape', {}, document.activeElement as HTMLElement);
  await waitFor(() => expect(view.container.querySelector('[role="menu"]')).toBeNull());
  expect(document.activeElement).toBe(list);
  expect(list.getAttribute('aria-activedescendant')).toBe(cursor);

  // Opened with a click, Escape goes back to its button (the menu-button pattern).
  const button = byRole(byRole(view.container, 'toolbar', 'Conversation actions'), 'button', 'Move to folder') as HTMLButtonElement;
  await press('x', {}, list); // something to move, so the button is enabled
  await waitFor(() => expect(button.disabled).toBe(false));
  button.click();
  await waitFor(() => expect(byRole(view.container, 'menu', 'Move to folder').contains(document.activeElement)).toBe(true));
  await press('Escape', {}, document.activeElement as HTMLElement);
  await waitFor(() => expect(document.activeElement).toBe(button));
});
