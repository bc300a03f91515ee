// @vitest-environment happy-dom
/** The reading pane with nothing open: how many rows are checked, else "No conversation selected". */
import { afterEach, expect, test } from 'vitest';
import { selectedTitle } from '../../../src-ui/app/EmptyPane';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

test('checked rows: the pane says how many are selected; Esc clears them and it says none is', async () => {
  expect(selectedTitle(1)).toBe('1 conversation selected');
  expect(selectedTitle(1234)).toBe('1,234 conversations selected');
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(view.container.querySelectorAll('#thread-list [role="option"]').length).toBeGreaterThan(3));
  const list = view.container.querySelector<HTMLElement>('#thread-list')!;
  const pane = () => byRole(view.container, 'region', 'Reading pane');
  expect(pane().textContent).toContain('No conversation selected');
  list.focus();
  await press('x', {}, list);
  await press('j', {}, list);
  await press('x', {}, list);
  await waitFor(() => expect(pane().textContent).toContain('2 conversations selected'));
  expect(pane().textContent).not.toContain('No conversation selected');
  await press('Escape', {}, list);
  await waitFor(() => expect(pane().textContent).toContain('No conversation selected'));
});
