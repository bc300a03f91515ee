// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from './fake-mail-engine';
import { click, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const rows = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('#thread-list [role="option"]:not([aria-disabled="true"])')];
const place = (container: HTMLElement) => container.querySelector('.reading-pane .tern-conversation-place')?.textContent ?? null;

test('with two accounts signed in, the open thread says which account and folder it is in', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  // One of Bob's threads, from the unified inbox: his address, not Alice's.
  const bobs = rows(view.container).find((row) => row.id.startsWith('thread-1002:'))!;
  await click(bobs);
  await waitFor(() => expect(place(view.container)).toBe('in bob@kite.test · Inbox'));
  const alices = rows(view.container).find((row) => row.id.startsWith('thread-1001:'))!;
  await click(alices);
  await waitFor(() => expect(place(view.container)).toBe('in alice@tern.test · Inbox'));
});

test('with one account signed in, the header says nothing about accounts', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(3));
  await click(rows(view.container)[0]);
  await waitFor(() => expect(view.container.querySelector('.reading-pane .tern-conversation-subject')).not.toBeNull());
  expect(place(view.container)).toBeNull();
});
