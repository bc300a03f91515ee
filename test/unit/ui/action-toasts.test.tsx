// @vitest-environment happy-dom
/**
 * Action feedback: one confirmation at a time (a new one replaces the one before), failures
 * stacked at most two, and a failed move's "moved" confirmation withdrawn in favour of its
 * error, with the list's cursor on the thread that came back.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_ERROR_TOASTS, withToast } from '../../../src-ui/state/engine-feeds';
import type { Toast } from '../../../src-ui/state/atoms';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const toasts = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('.toast')];
const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];

async function openInbox() {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  const list = listbox(view.container);
  list.focus();
  return { view, engine, list, region: byRole(view.container, 'region', 'Notifications') };
}

describe('withToast (pure)', () => {
  const info = (id: number): Toast => ({ id, tone: 'info', message: `info ${id}` });
  const error = (id: number): Toast => ({ id, tone: 'error', message: `error ${id}` });
  test('a confirmation replaces the one before; failures stay beside it, the oldest going past the limit', () => {
    expect(withToast([info(1)], info(2)).map((toast) => toast.id)).toEqual([2]);
    expect(withToast([error(1), info(2)], info(3)).map((toast) => toast.id)).toEqual([1, 3]);
    let shown: readonly Toast[] = [info(1)];
    for (let id = 2; id < 7; id++) shown = withToast(shown, error(id));
    expect(shown.filter((toast) => toast.tone === 'error')).toHaveLength(MAX_ERROR_TOASTS);
    expect(shown.map((toast) => toast.id)).toEqual([1, 5, 6]);
  });
});

test('e z # z ! z: one toast at a time, "Action undone." once', async () => {
  const { view, list, region } = await openInbox();
  for (const key of ['e', '#', '!']) {
    await press(key, {}, list);
    await waitFor(() => expect(byRole(region, 'status').textContent).toMatch(/Conversation (archived|moved to Trash|marked as spam)\./));
    expect(toasts(view.container)).toHaveLength(1);
    await press('z', {}, list);
    await waitFor(() => expect(byRole(region, 'status').textContent).toContain('Action undone.'));
    expect(toasts(view.container)).toHaveLength(1);
  }
});

test('a move that fails: its error alone (no "archived" beside it), and the thread put back is the cursor row', async () => {
  const { view, engine, list, region } = await openInbox();
  const first = rows(view.container)[0]!.id;
  engine.failNextCommand('archive', 'MailLockUnacquired');
  await press('e', {}, list);
  await waitFor(() => expect(byRole(region, 'alert').textContent).toContain('The mailbox is busy. Please try again.'));
  await waitFor(() => expect(rows(view.container)[0]!.id).toBe(first));
  // A frame later too: the withdrawn confirmation does not come back.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(byRole(region, 'status').textContent).toBe('');
  expect(toasts(view.container)).toHaveLength(1);
  expect(list.getAttribute('aria-activedescendant')).toBe(first);
  // `z` has nothing to undo.
  const before = engine.calls.length;
  await press('z', {}, list);
  expect(engine.calls.slice(before).some((call) => call.method === 'commands.run')).toBe(false);
});

test('an undo the engine refuses: its error replaces "Action undone."', async () => {
  const { view, engine, list, region } = await openInbox();
  const first = rows(view.container)[0]!.id;
  await press('e', {}, list);
  await waitFor(() => expect(byRole(region, 'status').textContent).toContain('Conversation archived.'));
  engine.failNextCommand('restore', 'MailLockUnacquired');
  await press('z', {}, list);
  await waitFor(() => expect(byRole(region, 'alert').textContent).toContain('The mailbox is busy. Please try again.'));
  expect(byRole(region, 'status').textContent).not.toContain('Action undone.');
  expect(rows(view.container).some((row) => row.id === first)).toBe(false);
});
