// @vitest-environment happy-dom
/**
 * The first screen with nobody logged in is the login screen, from the first render on:
 * never the mailbox (its sidebar, its list of loading rows) on the way there. The same
 * when the last account logs out. A logged-in start still renders the mailbox first.
 */
import { afterEach, expect, test } from 'vitest';
import { loginNeeded } from '../../../src-ui/engine/first-screen';
import { accountsAtom } from '../../../src-ui/state/atoms';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const MAILBOX = '#thread-list, nav[aria-label="Mailboxes"]';

/** Every state of the container React commits, from before the first render on. */
function recordScreens(seen: string[], loggedOut: () => boolean) {
  return (container: HTMLElement) => {
    const look = () => {
      if (container.querySelector(MAILBOX)) seen.push(loggedOut() ? 'mailbox without accounts' : 'mailbox');
      if (container.querySelector('input[name="email"]')) seen.push('login');
    };
    new MutationObserver(look).observe(container, { childList: true, subtree: true });
  };
}

test('the decision: no account sends every address but the login screen to it', () => {
  expect(loginNeeded(0, '/')).toBe(true);
  expect(loginNeeded(0, '/mail/unified/inbox')).toBe(true);
  expect(loginNeeded(0, '/mail/1001/2001')).toBe(true);
  expect(loginNeeded(0, '/login')).toBe(false);
  expect(loginNeeded(1, '/mail/unified/inbox')).toBe(false);
  expect(loginNeeded(2, '/login')).toBe(false); // adding another account
});

for (const path of ['/', '/mail/unified/inbox', '/mail/1001/2001']) {
  test(`a browser with no account at ${path}: the first render is the login screen, no mailbox before it`, async () => {
    const seen: string[] = [];
    const view = await renderApp({ engine: createFakeEngine({ loggedIn: [] }), path, asThePageDoes: true, beforeRender: recordScreens(seen, () => true) });
    // Decided before anything rendered: the address is already the login screen's.
    expect(view.pathname()).toBe('/login');
    await waitFor(() => byRole(view.container, 'heading', 'Sign in'));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((screen) => screen !== 'login')).toEqual([]);
  });
}

test('a logged-in start renders the mailbox first, never the login screen', async () => {
  const seen: string[] = [];
  const view = await renderApp({ engine: createFakeEngine({ loggedIn: ['alice@tern.test'] }), path: '/', asThePageDoes: true, beforeRender: recordScreens(seen, () => false) });
  expect(view.pathname()).toBe('/mail/unified/inbox');
  await waitFor(() => expect(view.container.querySelector('#thread-list [role="option"]')).not.toBeNull());
  expect(seen[0]).toBe('mailbox');
  expect(seen).not.toContain('login');
});

test('logging out of the last account goes to the login screen without an empty mailbox on the way', async () => {
  const seen: string[] = [];
  let store: { get: (atom: typeof accountsAtom) => unknown } | null = null;
  const view = await renderApp({
    engine: createFakeEngine({ loggedIn: ['alice@tern.test'] }),
    path: '/mail/unified/inbox',
    asThePageDoes: true,
    beforeRender: (container, app) => {
      store = app.state.store;
      recordScreens(seen, () => ((store?.get(accountsAtom) as readonly unknown[] | null) ?? []).length === 0)(container);
    },
  });
  await waitFor(() => expect(view.container.querySelector('#thread-list [role="option"]')).not.toBeNull());
  await click(byRole(view.container, 'button', /^Account:/));
  await click(byRole(view.container, 'menuitem', 'Log out of alice@tern.test'));
  await waitFor(() => expect(view.pathname()).toBe('/login'));
  await waitFor(() => byRole(view.container, 'status', 'You have logged out of all accounts.'));
  expect(seen).toContain('login');
  expect(seen).not.toContain('mailbox without accounts');
  // Stays there: nothing navigates back to a mailbox afterwards.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(view.pathname()).toBe('/login');
  expect(view.container.querySelector(MAILBOX)).toBeNull();
});
