// @vitest-environment happy-dom
/**
 * Settings → Identity and Email alias: the own address's Reply-To and blind copy saved
 * through the engine; an alias added, its bad address refused in place without a save (what
 * was typed stays); a free plan shows the alias paywall instead of a form.
 */
import { afterEach, expect, test } from 'vitest';
import { ownIdentity } from '../../../../shared/identities';
import { createFakeEngine } from '../fake-mail-engine';
import { byRole, click, renderApp, typeInto, unmountAll, waitFor } from '../render-app';
import { FakeSettings } from './fake-settings';

afterEach(unmountAll);

const engineWith = (settings: FakeSettings) => Object.assign(createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] }), { settings });
/** A form by its accessible name (byRole matches explicit roles only). */
const named = (element: string) => (container: HTMLElement, name: string) => {
  const found = container.querySelector<HTMLElement>(`${element}[aria-label="${name}"]`);
  if (!found) throw new Error(`No ${element} ${name}: ${container.textContent}`);
  return found;
};
const formNamed = named('form');
const sectionNamed = named('section');
const input = (form: HTMLElement, label: string) => {
  const labelled = [...form.querySelectorAll('label')].find((candidate) => candidate.textContent === label);
  const found = labelled && form.querySelector<HTMLInputElement>(`#${CSS.escape(labelled.htmlFor)}`);
  if (!found) throw new Error(`No field ${label}`);
  return found;
};

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

test('the own address: Reply-To and a blind copy saved through the engine; a bad Reply-To is refused in place, nothing sent', async () => {
  const settings = new FakeSettings({ '1001': { identities: [ownIdentity('alice@tern.test')] }, '1002': {} });
  const view = await renderApp({ engine: engineWith(settings), path: '/settings/identity' });
  const form = await waitFor(() => formNamed(view.container, 'Sending from alice@tern.test'));
  typeInto(input(form, 'Reply-To'), 'desk@');
  await click(byRole(form, 'button', 'Save'));
  await waitFor(() => expect(form.querySelector('[role="alert"]')?.textContent).toBe('Enter a valid email address.'));
  expect(settings.identitySaves).toEqual([]);
  expect(input(form, 'Reply-To').value).toBe('desk@');

  typeInto(input(form, 'Reply-To'), 'desk@tern.test');
  await click([...form.querySelectorAll('label')].find((label) => label.textContent === 'Send me a blind copy of every message')!.querySelector('input'));
  await click(byRole(form, 'button', 'Save'));
  await waitFor(() => expect(settings.identitySaves).toHaveLength(1));
  expect(settings.identitySaves[0]).toMatchObject({ accountId: '1001', identityId: 'own', identity: { email: 'alice@tern.test', replyTo: 'desk@tern.test', bccSelf: true } });
  // Bob's own identity shows too, before the engine knows his list.
  formNamed(view.container, 'Sending from bob@kite.test');
});
