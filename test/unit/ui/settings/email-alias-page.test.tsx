// @vitest-environment happy-dom
/**
 * Settings → Email alias: an alias added through the engine; a free plan shows the alias
 * paywall instead of a form. (Settings → Identity is identity-page.test.tsx: one page per
 * file, each in a fresh context — rendered one after the other in one file, the second page
 * sometimes never rendered.)
 */
import { afterEach, expect, test } from 'vitest';
import { ownIdentity } from '../../../../shared/identities';
import { byRole, click, renderApp, typeInto, unmountAll, waitFor } from '../render-app';
import { FakeSettings } from './fake-settings';
import { engineWith, formNamed, input, sectionNamed } from './identity-forms';

afterEach(unmountAll);

test('an alias is added with its name; a free account gets the paywall instead', async () => {
  const settings = new FakeSettings({ '1001': { identities: [ownIdentity('alice@tern.test')] }, '1002': { plan: 'free' } });
  const view = await renderApp({ engine: engineWith(settings), path: '/settings/email-alias' });
  const bob = await waitFor(() => sectionNamed(view.container, 'Sending from bob@kite.test'));
  await click(byRole(bob, 'button', 'Add an alias'));
  const paywall = await waitFor(() => byRole(view.container, 'dialog', 'Email alias'));
  expect(paywall.textContent).toContain('Email alias is not included in your plan.');
  expect(bob.querySelector('form')).toBeNull();
  await click(byRole(paywall, 'button', 'Not now'));

  const alice = sectionNamed(view.container, 'Sending from alice@tern.test');
  expect(alice.textContent).toContain('No aliases yet.');
  await click(byRole(alice, 'button', 'Add an alias'));
  const form = await waitFor(() => formNamed(alice, 'New alias'));
  typeInto(input(form, 'Address'), 'alice.work@tern.test');
  typeInto(input(form, 'From name'), 'Alice at Work');
  await click(byRole(form, 'button', 'Save'));
  await waitFor(() => formNamed(alice, 'Alias alice.work@tern.test'));
  expect(settings.identitySaves[0]).toMatchObject({ accountId: '1001', identityId: expect.stringMatching(/^alias-/), identity: { email: 'alice.work@tern.test', name: 'Alice at Work' } });

});
