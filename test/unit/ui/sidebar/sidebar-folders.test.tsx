// @vitest-environment happy-dom
/**
 * The sidebar while an account's folders are not listed yet: right after a first login the
 * engine answers an empty folder list (its first sync has not run), and the account showed
 * nothing under its name, as if it had no folders at all.
 */
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from '../fake-mail-engine';
import { byRole, renderApp, step, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

test('an account whose folders are not listed yet says they are loading, then shows them', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
  const listFolders = engine.mail.listFolders.bind(engine.mail);
  let aliceListed = false;
  engine.mail.listFolders = async (params) => (params.accountId === '1001' && !aliceListed ? [] : listFolders(params));

  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  const nav = await waitFor(() => byRole(view.container, 'navigation', 'Mailboxes'));
  const alice = await waitFor(() => byRole(nav, 'region', 'alice@tern.test'));
  const bob = byRole(nav, 'region', 'bob@kite.test');
  await waitFor(() => expect(bob.querySelectorAll('a.nav-item').length).toBeGreaterThan(0));
  expect(alice.querySelectorAll('a.nav-item')).toHaveLength(0);
  expect(alice.querySelector('.nav-loading')?.textContent).toBe('Loading folders…');
  expect(bob.querySelector('.nav-loading')).toBeNull();

  // The first sync lists them: the engine reports the account caught up, the sidebar asks again.
  aliceListed = true;
  await step(() => engine.setSync('1001', 'pulling'));
  await step(() => engine.setSync('1001', 'idle'));
  await waitFor(() => expect(alice.querySelectorAll('a.nav-item').length).toBeGreaterThan(0), 5000);
  expect(alice.querySelector('.nav-loading')).toBeNull();
});
