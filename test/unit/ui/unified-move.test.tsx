// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { commonMoveTargets } from '../../../src-ui/toolbar/move-menu';
import type { FolderView } from '../../../shared/worker-mail-api';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];
const moves = (engine: ReturnType<typeof createFakeEngine>) =>
  engine.calls.filter((call) => call.method === 'commands.run' && (call.params as { kind: string }).kind === 'move').map((call) => call.params as { accountId: string; folderId: string; threadIds: string[] });

test('v in the unified inbox offers the folders every account has, and moves each thread to its own account’s folder', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
  // A folder only Alice has: nowhere to put Bob's thread, so not offered.
  await engine.folders.changeFolder({ change: { kind: 'create', accountId: '1001', name: 'Only Alice', parentId: null } });
  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  const list = listbox(view.container);
  const alices = rows(view.container).find((row) => row.id.startsWith('thread-1001:'))!;
  const bobs = rows(view.container).find((row) => row.id.startsWith('thread-1002:'))!;
  // Check one of each account (their avatars toggle the selection, as in Gmail).
  for (const row of [alices, bobs]) await click(row.querySelector('.row-avatar, .row-checkbox'));
  await waitFor(() => expect(view.container.textContent).toContain('2 selected'));
  list.focus();
  await press('v', {}, list);
  const menu = byRole(view.container, 'menu', 'Move to folder');
  const labels = [...menu.querySelectorAll('[role="menuitem"]')].map((item) => item.textContent?.trim());
  expect(labels).toEqual(['Archive', 'Spam', 'Trash', 'Projects', '2026', 'Receipts', 'Travel']);
  await click(byRole(menu, 'menuitem', 'Receipts'));
  await waitFor(() => expect(moves(engine)).toHaveLength(2));
  const byAccount = Object.fromEntries(moves(engine).map((move) => [move.accountId, move.folderId]));
  const listed = async (accountId: string) => (await engine.mail.listFolders({ accountId })).find((folder) => folder.path === 'Receipts')!.id;
  expect(byAccount).toEqual({ '1001': await listed('1001'), '1002': await listed('1002') });
  expect(byAccount['1001']).not.toBe(byAccount['1002']);
  await waitFor(() => expect(view.container.textContent).toContain('2 conversations moved to Receipts.'));
});

test('common folders: special ones by role whatever their names, the others by path', () => {
  const folder = (id: string, path: string, specialUse: FolderView['specialUse'] = null): FolderView => ({ id, accountId: '', path, name: path, parentId: null, specialUse, total: 0, unread: 0, depth: 0 });
  const targets = commonMoveTargets(
    [
      { accountId: 'a', separator: '/', folders: [folder('1', 'INBOX', 'inbox'), folder('2', 'Archive', 'archive'), folder('3', 'Work/Clients'), folder('4', 'Work'), folder('5', 'Solo')] },
      { accountId: 'b', separator: '.', folders: [folder('11', 'INBOX', 'inbox'), folder('12', '[Gmail].All Archive', 'archive'), folder('13', 'Work.Clients'), folder('14', 'Work')] },
    ],
    'inbox',
  );
  expect(targets.map((target) => [target.displayName, target.folderIdByAccount])).toEqual([
    ['Archive', { a: '2', b: '12' }],
    ['Work', { a: '4', b: '14' }],
    ['Clients', { a: '3', b: '13' }],
  ]);
});
