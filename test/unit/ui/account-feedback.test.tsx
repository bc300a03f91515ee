// @vitest-environment happy-dom
/**
 * Account feedback: logging out of one account says so; adding an account already signed
 * in says so at the email step and offers to switch to it (no password asked).
 */
import { afterEach, expect, test } from 'vitest';
import { ERROR_CATALOGUE } from '../../../shared/errors';
import { initialLoginState, loginReducer } from '../../../src-ui/login/login-machine';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, renderApp, typeInto, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

test('login machine: an address already signed in stays on the email step with the catalogue sentence', () => {
  const state = loginReducer(initialLoginState(), { type: 'SUBMIT_EMAIL', email: ' Alice@Tern.test ', signedIn: ['alice@tern.test'] });
  expect(state.step).toBe('SPLIT_LOGIN');
  expect(state.error).toEqual({ field: 'email', name: 'AccountAlreadySignedIn', message: ERROR_CATALOGUE.AccountAlreadySignedIn.description });
  expect(loginReducer(initialLoginState(), { type: 'SUBMIT_EMAIL', email: 'bob@kite.test', signedIn: ['alice@tern.test'] }).step).toBe('LOGIN');
});

test('"Log out of bob@kite.test" shows "Logged out of bob@kite.test."', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
  const bobInbox = (await engine.mail.listFolders({ accountId: '1002' })).find((folder) => folder.specialUse === 'inbox')!;
  const view = await renderApp({ engine, path: `/mail/1002/${bobInbox.id}` });
  await waitFor(() => byRole(view.container, 'button', 'Account: bob@kite.test'));
  await click(byRole(view.container, 'button', 'Account: bob@kite.test'));
  await click(byRole(view.container, 'menuitem', 'Log out of bob@kite.test'));
  const notifications = byRole(view.container, 'region', 'Notifications');
  await waitFor(() => expect(byRole(notifications, 'status').textContent).toContain('Logged out of bob@kite.test.'));
  expect(engine.calls.filter((call) => call.method === 'accounts.remove')).toHaveLength(1);
});

test('Add account with an address already signed in: the email step says so and offers to switch to it', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
  const view = await renderApp({ engine, path: '/login?add=1' });
  await waitFor(() => byRole(view.container, 'heading', 'Add another account'));
  const email = view.container.querySelector<HTMLInputElement>('input[name="email"]')!;
  await typeInto(email, 'alice@tern.test');
  await click(byRole(view.container, 'button', 'Next'));
  await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
  expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toContain(ERROR_CATALOGUE.AccountAlreadySignedIn.description);
  expect(view.container.querySelector('input[name="login_password"]')).toBeNull();
  await click(byRole(view.container, 'button', 'Switch to alice@tern.test'));
  const aliceInbox = (await engine.mail.listFolders({ accountId: '1001' })).find((folder) => folder.specialUse === 'inbox')!;
  await waitFor(() => expect(view.pathname()).toBe(`/mail/1001/${aliceInbox.id}`));
  expect(engine.calls.some((call) => call.method === 'accounts.add')).toBe(false);
});
