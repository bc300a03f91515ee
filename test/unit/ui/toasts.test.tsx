// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, press, renderApp, step, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const toasts = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('.toast')];

test('toasts live in a status region (confirmations) and an alert region (failures); Escape in one dismisses only that one', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(view.container.querySelectorAll('#thread-list [role="option"]').length).toBeGreaterThan(2));
  const list = view.container.querySelector<HTMLElement>('#thread-list')!;
  list.focus();
  await press('e', {}, list);
  const region = byRole(view.container, 'region', 'Notifications');
  await waitFor(() => expect(byRole(region, 'status').textContent).toContain('Conversation archived.'));
  engine.failNextCommand('archive', 'MailLockUnacquired');
  await press('e', {}, list);
  await waitFor(() => expect(byRole(region, 'alert').textContent).toContain('The mailbox is busy. Please try again.'));
  // One confirmation at most (the failed archive's own never stays beside its failure).
  expect(byRole(region, 'status').querySelectorAll('.toast').length).toBeLessThanOrEqual(1);
  expect(byRole(region, 'alert').querySelectorAll('.toast')).toHaveLength(1);

  // From the keyboard: focus the failure's dismiss button, Escape.
  const dismiss = byRole(byRole(region, 'alert'), 'button', 'Dismiss notification');
  dismiss.focus();
  const escape = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
  await step(() => dismiss.dispatchEvent(escape));
  await waitFor(() => expect(region.querySelector('[role="alert"]')?.textContent).toBe(''));
  expect(escape.defaultPrevented).toBe(true); // handled there: nothing else (the composer, a search box) acts on it
});
