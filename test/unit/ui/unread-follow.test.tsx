// @vitest-environment happy-dom
/**
 * The sidebar's inbox count moves with the bold row: Shift+I (and the toolbar) change both in
 * one step, before the engine has answered anything (walkthrough: "unread counts lag the bold
 * row by seconds"). The engine here answers slowly, so only the tab's own step can do it.
 */
import { afterEach, expect, test } from 'vitest';
import type { ThreadRow } from '../../../shared/worker-mail-api';
import { inboxUnreadChanges } from '../../../src-ui/state/unread-follow';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];
const inboxCount = (container: HTMLElement) => Number(byRole(byRole(container, 'navigation', 'Mailboxes'), 'link', /^Inbox/).querySelector('.nav-count')?.firstChild?.textContent?.replace(/\D/g, '') || 0);

test('Shift+I: the inbox count drops in the same render as the row stops being bold, before the engine answers', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'], latencyMs: 2000 });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  await waitFor(() => expect(inboxCount(view.container)).toBeGreaterThan(0));
  const list = listbox(view.container);
  list.focus();
  // To the first unread row.
  while (!rows(view.container).find((row) => row.id === list.getAttribute('aria-activedescendant'))?.classList.contains('is-unread')) await press('j', {}, list);
  const row = () => rows(view.container).find((candidate) => candidate.id === list.getAttribute('aria-activedescendant'))!;
  const before = inboxCount(view.container);
  // Every render of the row and count is watched: never the row read while the count is still the old one.
  const seen: string[] = [];
  const observer = new MutationObserver(() => seen.push(`${row().classList.contains('is-unread') ? 'bold' : 'plain'}:${inboxCount(view.container)}`));
  observer.observe(view.container, { subtree: true, childList: true, characterData: true, attributes: true });
  await press('I', { shiftKey: true }, list);
  observer.disconnect();
  expect(row().classList.contains('is-unread')).toBe(false);
  expect(inboxCount(view.container)).toBe(before - 1);
  expect(seen).not.toContain(`plain:${before}`);
  // The engine's own count has not come back yet (it answers in 2 s): this was the tab's step.
  expect(engine.calls.filter((call) => call.method === 'commands.run')).toHaveLength(1);
});

test('the change a command makes to each account’s inbox count, from the rows shown', () => {
  const row = (accountId: string, folderIds: string[], unreadCount: number) => ({ accountId, folderIds, unreadCount }) as unknown as ThreadRow;
  const inboxOf = (accountId: string) => (accountId === 'a' ? 'a-in' : 'b-in');
  const rowsShown = [row('a', ['a-in'], 2), row('a', ['a-in'], 0), row('b', ['b-in', 'b-x'], 1), row('a', ['a-junk'], 1)];
  expect(inboxUnreadChanges({ kind: 'markRead', read: true }, rowsShown, inboxOf)).toEqual(new Map([['a', -1], ['b', -1]]));
  expect(inboxUnreadChanges({ kind: 'markRead', read: false }, rowsShown, inboxOf)).toEqual(new Map([['a', 1]]));
  expect(inboxUnreadChanges({ kind: 'archive' }, rowsShown, inboxOf)).toEqual(new Map([['a', -1], ['b', -1]]));
  expect(inboxUnreadChanges({ kind: 'notspam' }, [rowsShown[3]], inboxOf)).toEqual(new Map([['a', 1]]));
  // A move into the inbox itself changes nothing; stars never do.
  expect(inboxUnreadChanges({ kind: 'move', folderId: 'a-in' }, rowsShown.slice(0, 1), inboxOf)).toEqual(new Map());
  expect(inboxUnreadChanges({ kind: 'star', starred: true }, rowsShown, inboxOf)).toEqual(new Map());
});
