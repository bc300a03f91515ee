// @vitest-environment happy-dom
/**
 * Settings → Identity: the own address's Reply-To and blind copy saved through the engine; a
 * bad Reply-To refused in place without a save (what was typed stays). (Email alias is
 * email-alias-page.test.tsx.)
 */
import { afterEach, expect, test } from 'vitest';
import { ownIdentity } from '../../../../shared/identities';
import { byRole, click, renderApp, typeInto, unmountAll, waitFor } from '../render-app';
import { FakeSettings } from './fake-settings';
import { engineWith, formNamed, input } from './identity-forms';

afterEach(unmountAll);

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
