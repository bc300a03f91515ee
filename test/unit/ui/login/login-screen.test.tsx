// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine, DEMO_LOGINS } from '../fake-mail-engine';
import { byRole, click, renderApp, step, typeInto, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

const CAROL = { email: 'carol@tern.test', password: 'Tern-demo-3!', name: 'Carol Diaz', mailId: '1003', challenge: 'AUTHENTICATOR' as const, authCode: '123456' };
const loggedOut = (latencyMs = 0) => createFakeEngine({ logins: [...DEMO_LOGINS, CAROL], loggedIn: [], latencyMs });

const input = (container: HTMLElement, name: string) => container.querySelector<HTMLInputElement>(`input[name="${name}"]`);

async function submitEmail(container: HTMLElement, email: string) {
  await typeInto(input(container, 'email')!, email);
  await click(byRole(container, 'button', 'Next'));
}

async function submitPassword(container: HTMLElement, password: string) {
  await typeInto(input(container, 'login_password')!, password);
  await click(byRole(container, 'button', 'Sign in'));
}

test('a browser with no account lands on the split login: email first, no other inputs yet', async () => {
  const view = await renderApp({ engine: loggedOut(), path: '/mail/unified/inbox' });
  await waitFor(() => expect(view.pathname()).toBe('/login'));
  await waitFor(() => byRole(view.container, 'heading', 'Sign in'));
  expect(byRole(view.container, 'heading', 'Tern Mail')).toBeTruthy();
  expect(input(view.container, 'email')).not.toBeNull();
  for (const name of ['login_password', 'auth_code', 'recovery_code']) expect(input(view.container, name)).toBeNull();
  expect(view.container.querySelector('[data-step]')?.getAttribute('data-step')).toBe('SPLIT_LOGIN');
  // The engine's version is an attribute for tests and support, never a line the user reads.
  expect(view.container.querySelector('[data-engine-version]')?.getAttribute('data-engine-version')).toBe('5.33.0');
  expect(view.container.textContent).not.toMatch(/Mail engine|5\.33\.0/);
});

test('an address breaking the seed rule is refused before sending, with the catalogue text next to the field', async () => {
  const view = await renderApp({ engine: loggedOut(), path: '/login' });
  await waitFor(() => input(view.container, 'email')!);
  await submitEmail(view.container, 'alice..x@tern.test');
  const email = input(view.container, 'email')!;
  expect(email.getAttribute('aria-invalid')).toBe('true');
  const error = document.getElementById(email.getAttribute('aria-describedby')!);
  expect(error?.textContent).toContain('This email address is not valid.');
  expect(view.engine.calls.some((call) => call.method === 'accounts.add')).toBe(false);
});

test('email, then password (login_password), LOADER while the engine works, then the mail', async () => {
  // The login answers only when the test has seen LOADER (a fixed latency passed before a loaded machine looked).
  let answer!: () => void;
  const loginGate = new Promise<void>((resolve) => (answer = resolve));
  const view = await renderApp({ engine: createFakeEngine({ logins: [...DEMO_LOGINS, CAROL], loggedIn: [], loginGate }), path: '/login' });
  await waitFor(() => input(view.container, 'email')!);
  await submitEmail(view.container, ' Alice@Tern.Test ');
  await waitFor(() => expect(input(view.container, 'login_password')).not.toBeNull());
  expect(view.container.querySelector('.email-chip')?.textContent).toContain('alice@tern.test');
  await typeInto(input(view.container, 'login_password')!, 'Tern-demo-1!');
  const preloaded: unknown[] = [];
  const preloadRoute = view.app.router.preloadRoute;
  view.app.router.preloadRoute = (options) => (preloaded.push(options), preloadRoute(options));
  await step(() => byRole(view.container, 'button', 'Sign in').click());
  await waitFor(() => expect(view.container.querySelector('[data-step]')?.getAttribute('data-step')).toBe('LOADER'));
  expect(byRole(view.container, 'status', /Signing in to alice@tern\.test/)).toBeTruthy();
  // The inbox's screens load while the gateway checks the password, not after its answer (issue 13).
  expect(preloaded).toEqual([{ to: '/mail/unified/$role', params: { role: 'inbox' } }]);
  answer();
  await waitFor(() => expect(view.pathname()).toBe('/mail/unified/inbox'));
  await waitFor(() => byRole(view.container, 'navigation', 'Mailboxes'));
  expect(view.engine.calls.find((call) => call.method === 'accounts.add')?.params).toEqual({ email: 'alice@tern.test', password: '***' });
});

test('a refused password shows "Incorrect Email or Password" next to the password field', async () => {
  const view = await renderApp({ engine: loggedOut(), path: '/login' });
  await waitFor(() => input(view.container, 'email')!);
  await submitEmail(view.container, 'alice@tern.test');
  await waitFor(() => input(view.container, 'login_password')!);
  await submitPassword(view.container, 'wrong');
  await waitFor(() => expect(input(view.container, 'login_password')?.getAttribute('aria-invalid')).toBe('true'));
  const password = input(view.container, 'login_password')!;
  expect(document.getElementById(password.getAttribute('aria-describedby')!)?.textContent).toContain('Incorrect Email or Password');
  // "Change" goes back to the email step with the address kept.
  await click(byRole(view.container, 'button', /Use another email address/));
  expect(input(view.container, 'email')?.value).toBe('alice@tern.test');
});

test('when the gateway asks, the auth_code step appears; a recovery code is the alternative', async () => {
  const view = await renderApp({ engine: loggedOut(), path: '/login' });
  await waitFor(() => input(view.container, 'email')!);
  await submitEmail(view.container, 'carol@tern.test');
  await waitFor(() => input(view.container, 'login_password')!);
  await submitPassword(view.container, 'Tern-demo-3!');
  await waitFor(() => expect(input(view.container, 'auth_code')).not.toBeNull());
  expect(byRole(view.container, 'heading', 'Two-step verification')).toBeTruthy();

  await click(byRole(view.container, 'button', 'Use a recovery code instead'));
  expect(input(view.container, 'recovery_code')).not.toBeNull();
  expect(input(view.container, 'auth_code')).toBeNull();
  await click(byRole(view.container, 'button', 'Use your authenticator app instead'));

  await typeInto(input(view.container, 'auth_code')!, '000000');
  await click(byRole(view.container, 'button', 'Verify'));
  await waitFor(() => expect(input(view.container, 'auth_code')?.getAttribute('aria-invalid')).toBe('true'));
  await typeInto(input(view.container, 'auth_code')!, '123456');
  await click(byRole(view.container, 'button', 'Verify'));
  await waitFor(() => expect(view.pathname()).toBe('/mail/unified/inbox'));
  expect(view.engine.calls.filter((call) => call.method === 'accounts.add').at(-1)?.params).toMatchObject({ authCode: '123456' });
});

test('adding another account keeps the first one logged in; logging out of all shows LOGGED_OUT', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  await waitFor(() => byRole(view.container, 'link', /Add account/));
  await click(byRole(view.container, 'link', /Add account/));
  await waitFor(() => byRole(view.container, 'heading', 'Add another account'));
  expect(view.search()).toEqual({ add: '1' });
  await submitEmail(view.container, 'bob@kite.test');
  await waitFor(() => input(view.container, 'login_password')!);
  await submitPassword(view.container, 'Kite-demo-2!');
  await waitFor(() => expect(view.pathname()).toBe('/mail/unified/inbox'));
  await waitFor(() => byRole(view.container, 'region', 'bob@kite.test'));
  expect(byRole(view.container, 'region', 'alice@tern.test')).toBeTruthy();
  expect(byRole(view.container, 'link', /All inboxes/)).toBeTruthy();

  // Log out of all accounts from the account menu.
  await click(byRole(view.container, 'button', /^Account:/));
  await click(byRole(view.container, 'menuitem', 'Log out of all accounts'));
  await waitFor(() => expect(view.pathname()).toBe('/login'));
  await waitFor(() => byRole(view.container, 'status', 'You have logged out of all accounts.'));
  expect(view.container.querySelector('[data-step]')?.getAttribute('data-step')).toBe('LOGGED_OUT');
  expect(engine.calls.filter((call) => call.method === 'accounts.remove')).toHaveLength(2);
});

test('the email step asks the gateway about the domain first: an unknown one is refused there, before any password', async () => {
  let answer!: () => void;
  const addressCheckGate = new Promise<void>((resolve) => (answer = resolve));
  const view = await renderApp({ engine: createFakeEngine({ logins: [...DEMO_LOGINS, CAROL], loggedIn: [], addressCheckGate }), path: '/login' });
  await waitFor(() => input(view.container, 'email')!);
  await typeInto(input(view.container, 'email')!, 'someone@nowhere.invalid');
  await click(byRole(view.container, 'button', 'Next'));
  // While the gateway looks, the button says so and cannot be pressed twice.
  await waitFor(() => expect((byRole(view.container, 'button', 'Checking…') as HTMLButtonElement).disabled).toBe(true));
  answer();
  const email = input(view.container, 'email')!;
  await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
  expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toContain('No mail server was found for this domain.');
  expect(input(view.container, 'login_password')).toBeNull();
  expect(view.engine.calls.filter((call) => call.method === 'accounts.checkAddress')).toEqual([{ method: 'accounts.checkAddress', params: { email: 'someone@nowhere.invalid' } }]);
  expect(view.engine.calls.some((call) => call.method === 'accounts.add')).toBe(false);
  // A served domain goes on to the password.
  await submitEmail(view.container, 'alice@tern.test');
  await waitFor(() => expect(input(view.container, 'login_password')).not.toBeNull());
});

test('a forced logout that kept unsent work says so, and signing in again says it went to Drafts', async () => {
  const engine = loggedOut();
  engine.accounts.endedSessions = async () => [{ accountId: '1001', emailAddress: 'alice@tern.test', endedAt: 1, keptDrafts: 2 }];
  const add = engine.accounts.add.bind(engine.accounts);
  engine.accounts.add = async (params) => {
    const result = await add(params);
    return result.kind === 'added' ? { ...result, restoredDrafts: 2 } : result;
  };
  const view = await renderApp({ engine, path: '/login' });
  await waitFor(() =>
    byRole(view.container, 'status', 'Your session for alice@tern.test ended. Sign in again. 2 unsent drafts are kept on this device and will be saved to Drafts when you sign in.'),
  );
  await submitEmail(view.container, 'alice@tern.test');
  await waitFor(() => input(view.container, 'login_password')!);
  await submitPassword(view.container, 'Tern-demo-1!');
  await waitFor(() => expect(view.pathname()).toBe('/mail/unified/inbox'));
  await waitFor(() => expect(byRole(view.container, 'region', 'Notifications').textContent).toContain('2 unsent messages were restored to Drafts.'));
});

test('logging out with drafts that have not reached the server asks first: Cancel keeps everything, "Log out anyway" logs out', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const asked: unknown[] = [];
  engine.accounts.unsentDrafts = async (params) => (asked.push(params), 2);
  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  const logOut = async () => {
    await waitFor(() => byRole(view.container, 'button', /^Account:/));
    await click(byRole(view.container, 'button', /^Account:/));
    await click(byRole(view.container, 'menuitem', 'Log out of alice@tern.test'));
    return waitFor(() => byRole(view.container, 'dialog', 'Log out of alice@tern.test?'));
  };
  const dialog = await logOut();
  expect(dialog.textContent).toContain('2 messages you wrote are saved on this device only: they have not reached the server yet. Logging out deletes them.');
  expect(asked).toEqual([{ accountIds: [expect.any(String)] }]);
  await click(byRole(dialog, 'button', 'Cancel'));
  await waitFor(() => expect(view.container.querySelector('dialog')).toBeNull());
  expect(engine.calls.filter((call) => call.method === 'accounts.remove')).toEqual([]);

  await click(byRole(await logOut(), 'button', 'Log out anyway'));
  await waitFor(() => expect(view.pathname()).toBe('/login'));
  expect(engine.calls.filter((call) => call.method === 'accounts.remove')).toHaveLength(1);
});
