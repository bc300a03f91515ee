// @vitest-environment happy-dom
/**
 * List keys on the cursor row with nothing checked (the walkthrough found `v` ignoring it):
 * every action key acts on the cursor's row, even when the list does not have the focus.
 */
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];
const threadOf = (row: HTMLElement | undefined) => row?.id.slice('thread-'.length).split(':')[1];
const runs = (engine: ReturnType<typeof createFakeEngine>) => engine.calls.filter((call) => call.method === 'commands.run').map((call) => call.params);

test('v with nothing checked opens "Move to" for the cursor row and moves that row; e, s and Shift+I act on it too', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  const toolbar = byRole(view.container, 'toolbar', 'Conversation actions');
  // The keys go to the page, not the list: the list does not have the focus.
  await press('j');
  await press('j');
  const third = threadOf(rows(view.container)[2])!;
  expect(rows(view.container)[2]!.classList.contains('is-cursor')).toBe(true);
  expect((byRole(toolbar, 'button', 'Move to folder') as HTMLButtonElement).disabled).toBe(true); // a button alone has no target

  await press('v');
  const menu = byRole(view.container, 'menu', 'Move to folder');
  await click(byRole(menu, 'menuitem', 'Receipts'));
  const receipts = (await engine.mail.listFolders({ accountId: '1001' })).find((folder) => folder.path === 'Receipts')!;
  expect(runs(engine).at(-1)).toEqual({ kind: 'move', accountId: '1001', threadIds: [third], folderId: receipts.id });
  // The menu closed: the toolbar again acts on nothing (no stale target left behind).
  await waitFor(() => expect((byRole(toolbar, 'button', 'Move to folder') as HTMLButtonElement).disabled).toBe(true));

  await waitFor(() => expect(rows(view.container).some((row) => threadOf(row) === third)).toBe(false));
  const now = threadOf(rows(view.container)[2])!;
  await press('s');
  await press('I', { shiftKey: true });
  await press('e');
  expect(runs(engine).slice(-3)).toEqual([
    { kind: 'star', accountId: '1001', threadIds: [now], starred: expect.any(Boolean) },
    { kind: 'markRead', accountId: '1001', threadIds: [now], read: true },
    { kind: 'archive', accountId: '1001', threadIds: [now] },
  ]);
});

test('the bodies near the cursor are asked for where it stops: its row first, then the rows j goes to, then those above', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  const asks = () => engine.calls.filter((call) => call.method === 'mail.prefetchNear').map((call) => (call.params as { threads: { threadId: string }[] }).threads.map((thread) => thread.threadId));
  const shown = () => rows(view.container).map((row) => threadOf(row)!);
  await waitFor(() => expect(asks()).toHaveLength(1));
  expect(asks()[0]!.slice(0, 6)).toEqual(shown().slice(0, 6));
  expect(asks()[0]!.length).toBeLessThanOrEqual(12);
  // Where the cursor stops: its row, the five below, the two above, then the rest on screen.
  await press('j');
  await press('j');
  await press('j');
  await waitFor(() => expect(asks().at(-1)![0]).toBe(shown()[3]));
  expect(asks().at(-1)!.slice(0, 9)).toEqual([...shown().slice(3, 9), shown()[2], shown()[1], shown()[0]]);
});
