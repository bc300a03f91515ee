// @vitest-environment happy-dom
/**
 * Send notices come from the engine's database, so a reload shows them again, and stay until
 * the person acts: "may have been sent" with Check Sent (the account's Sent folder), Send
 * again and a dismiss that says it was sent; "not sent" with Open draft.
 */
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from './fake-mail-engine';
import { accessibleName, byRole, click, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const maybeSent = { noticeId: 'send-1', accountId: '1001', kind: 'maybeSent', draftId: 'd-1', subject: 'Quarterly plan', at: 1, outboxId: '41' } as const;

test('a message that may have been sent: told with its subject; Check Sent opens Sent, Send again sends it and the notice goes', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  engine.notices.push({ ...maybeSent });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  const region = await waitFor(() => byRole(view.container, 'region', 'Notifications'));
  const notice = await waitFor(() => {
    const found = region.querySelector<HTMLElement>('[data-notice="maybeSent"]');
    if (!found) throw new Error('no notice yet');
    return found;
  });
  expect(notice.textContent).toContain('“Quarterly plan” may have been sent');
  expect(notice.closest('[role="status"]')).not.toBeNull();
  const dismiss = byRole(notice, 'button', /^Dismiss: /);
  expect(accessibleName(dismiss)).toBe('Dismiss: “Quarterly plan” may have been sent; it was sent');

  await click(byRole(notice, 'button', 'Check Sent'));
  const sent = engine.folderOf('1001', 'sent');
  await waitFor(() => expect(view.pathname()).toBe(`/mail/1001/${sent.id}`));

  await click(byRole(notice, 'button', 'Send again'));
  await waitFor(() => expect(engine.calls.some((call) => call.method === 'commands.sendAgain')).toBe(true));
  expect(engine.calls.find((call) => call.method === 'commands.sendAgain')?.params).toEqual({ accountId: '1001', noticeId: 'send-1', delayMs: 5000 });
  await waitFor(() => expect(region.querySelector('[data-notice]')).toBeNull());
});

test('a message not sent: the reason and the server reply; dismiss forgets it in the engine', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  engine.notices.push({ ...maybeSent, kind: 'notSent', error: { name: 'SendFailed', message: 'x', detail: '550 5.1.1 no such user' } });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  const notice = await waitFor(() => {
    const found = view.container.querySelector<HTMLElement>('[data-notice="notSent"]');
    if (!found) throw new Error('no notice yet');
    return found;
  });
  expect(notice.textContent).toContain('“Quarterly plan” was not sent');
  expect(notice.textContent).toContain('The mail server answered: “550 5.1.1 no such user”');
  byRole(notice, 'button', 'Open draft');
  await click(byRole(notice, 'button', 'Dismiss: “Quarterly plan” was not sent'));
  await waitFor(() => expect(view.container.querySelector('[data-notice]')).toBeNull());
  expect(engine.calls.find((call) => call.method === 'commands.dismissSendNotice')?.params).toEqual({ accountId: '1001', noticeId: 'send-1' });
});
