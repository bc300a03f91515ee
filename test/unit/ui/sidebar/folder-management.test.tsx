// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import type { FolderChange } from '../../../../shared/worker-mail-api';
import { createFakeEngine } from '../fake-mail-engine';
import { accessibleName, byRole, click, press, renderApp, typeInto, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

const rows = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('#thread-list [role="option"]:not([aria-disabled="true"])')];
const folderNames = (section: HTMLElement) => [...section.querySelectorAll<HTMLElement>('a.nav-item')].map((link) => `${link.style.getPropertyValue('--depth')}:${link.querySelector('.nav-label')?.textContent}`);
/** The "Inside" picker (a <select>: render-app's byRole knows no implicit combobox). */
function picker(dialog: HTMLElement): HTMLSelectElement {
  const select = dialog.querySelector('select')!;
  expect(accessibleName(select)).toBe('Inside');
  return select;
}
const changes = (engine: ReturnType<typeof createFakeEngine>) => engine.calls.filter((call) => call.method === 'folders.changeFolder').map((call) => call.params as FolderChange);

async function openAlice() {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(3));
  const alice = byRole(byRole(view.container, 'navigation', 'Mailboxes'), 'region', 'alice@tern.test');
  await waitFor(() => expect(folderNames(alice)).toContain('0:Receipts'));
  return { engine, view, alice };
}

test('New folder: the name is checked as typed, a name taken is said next to the field, and the folder shows in the sidebar', async () => {
  const { engine, view, alice } = await openAlice();
  await click(byRole(alice, 'button', 'New folder'));
  const dialog = await waitFor(() => byRole(view.container, 'dialog', 'New folder'));
  const name = byRole(dialog, 'textbox', 'Folder name') as HTMLInputElement;
  await waitFor(() => expect(document.activeElement).toBe(name));
  // The separator would make another folder: said at once, nothing sent.
  await typeInto(name, 'Bills/2026');
  expect(byRole(dialog, 'alert').textContent).toBe('A folder name cannot contain “/”: to put a folder inside another, pick it under “Inside”.');
  expect(name.getAttribute('aria-invalid')).toBe('true');
  await typeInto(name, 'x'.repeat(256));
  expect(byRole(dialog, 'alert').textContent).toBe('Folder names can be at most 255 characters long.');
  await click(byRole(dialog, 'button', 'Create'));
  expect(changes(engine)).toEqual([]);
  // A name the account has already: the mail server's refusal, in the catalogue's words, by the field.
  await typeInto(name, 'Receipts');
  await click(byRole(dialog, 'button', 'Create'));
  await waitFor(() => expect(byRole(dialog, 'alert').textContent).toBe('A folder with this name already exists.'));
  expect(name.getAttribute('aria-describedby')).toBe(byRole(dialog, 'alert').id);
  // Inside Projects: a subfolder.
  await typeInto(name, 'Receipts');
  const inside = picker(dialog);
  const projects = [...inside.options].find((option) => option.textContent === 'Projects')!;
  inside.value = projects.value;
  inside.dispatchEvent(new Event('change', { bubbles: true }));
  await click(byRole(dialog, 'button', 'Create'));
  await waitFor(() => expect(view.container.querySelector('dialog')).toBeNull());
  expect(changes(engine).at(-1)).toEqual({ kind: 'create', accountId: '1001', name: 'Receipts', parentId: projects.value });
  await waitFor(() => expect(folderNames(alice)).toContain('1:Receipts'));
});

test('a folder’s menu renames and moves it; special folders have none', async () => {
  const { engine, view, alice } = await openAlice();
  expect(alice.querySelector('[aria-label="More actions for Inbox"]')).toBeNull();
  await click(byRole(alice, 'button', 'More actions for Travel'));
  await click(byRole(alice, 'menuitem', 'Rename…'));
  const dialog = await waitFor(() => byRole(view.container, 'dialog', 'Rename “Travel”'));
  const name = byRole(dialog, 'textbox', 'Folder name') as HTMLInputElement;
  expect(name.value).toBe('Travel');
  await typeInto(name, 'Trips');
  await click(byRole(dialog, 'button', 'Rename'));
  await waitFor(() => expect(folderNames(alice)).toContain('0:Trips'));
  expect(folderNames(alice)).not.toContain('0:Travel');

  await click(byRole(alice, 'button', 'More actions for Trips'));
  await click(byRole(alice, 'menuitem', 'Move to…'));
  const move = await waitFor(() => byRole(view.container, 'dialog', 'Move “Trips”'));
  const inside = picker(move);
  // Never into itself; special folders are not offered.
  expect([...inside.options].map((option) => option.textContent?.trim())).toEqual(['No parent (top level)', 'Projects', '2026', 'Receipts']);
  inside.value = [...inside.options].find((option) => option.textContent === 'Receipts')!.value;
  inside.dispatchEvent(new Event('change', { bubbles: true }));
  await click(byRole(move, 'button', 'Move'));
  await waitFor(() => expect(folderNames(alice)).toEqual(expect.arrayContaining(['0:Receipts', '1:Trips'])));
  expect(changes(engine).map((change) => change.kind)).toEqual(['rename', 'move']);
});

test('from the keyboard: Shift+F10 on a folder opens its menu; Delete asks first, naming what goes to Trash', async () => {
  const { engine, view, alice } = await openAlice();
  // Two threads in Receipts, so the confirmation has something to count.
  const receipts = [...alice.querySelectorAll<HTMLAnchorElement>('a.nav-item')].find((link) => link.textContent?.startsWith('Receipts'))!;
  const inbox = engine.threadsOf('1001', 'inbox');
  const folderId = receipts.getAttribute('data-tree-key')!.split(':')[2]!;
  await engine.commands.run({ command: { kind: 'move', accountId: '1001', threadIds: [inbox[0]!.threadId, inbox[1]!.threadId], folderId } });
  receipts.focus();
  await press('F10', { shiftKey: true }, receipts);
  const menu = await waitFor(() => byRole(alice, 'menu', 'More actions for Receipts'));
  await waitFor(() => expect(document.activeElement?.textContent).toBe('Rename…'));
  await click(byRole(menu, 'menuitem', 'Delete…'));
  const dialog = await waitFor(() => byRole(view.container, 'dialog', 'Delete “Receipts”?'));
  expect(dialog.textContent).toContain('“Receipts”, with its 2 messages, will move to Trash, where you can restore it.');
  // Escape keeps the folder.
  await press('Escape', {}, document.activeElement ?? dialog);
  await waitFor(() => expect(view.container.querySelector('dialog')).toBeNull());
  expect(changes(engine)).toEqual([]);

  await click(byRole(alice, 'button', 'More actions for Receipts'));
  await click(byRole(alice, 'menuitem', 'Delete…'));
  await click(byRole(await waitFor(() => byRole(view.container, 'dialog', 'Delete “Receipts”?')), 'button', 'Delete folder'));
  await waitFor(() => expect(view.container.querySelector('dialog')).toBeNull());
  expect(changes(engine)).toEqual([{ kind: 'delete', accountId: '1001', folderId }]);
  await waitFor(() => expect(folderNames(alice)).toContain('1:Receipts'));
  expect(folderNames(alice)).not.toContain('0:Receipts');
});

test('a folder gone meanwhile (another mail program deleted it) is said in the dialog, which stays open', async () => {
  const { engine, view, alice } = await openAlice();
  await click(byRole(alice, 'button', 'More actions for Travel'));
  await click(byRole(alice, 'menuitem', 'Rename…'));
  const dialog = await waitFor(() => byRole(view.container, 'dialog', 'Rename “Travel”'));
  // Deleted for good elsewhere while the dialog is open (the fake deletes it outside Trash's reach by deleting twice).
  const travel = (await engine.mail.listFolders({ accountId: '1001' })).find((folder) => folder.path === 'Travel')!;
  await engine.folders.changeFolder({ change: { kind: 'delete', accountId: '1001', folderId: travel.id } });
  await engine.folders.changeFolder({ change: { kind: 'delete', accountId: '1001', folderId: travel.id } });
  await typeInto(byRole(dialog, 'textbox', 'Folder name') as HTMLInputElement, 'Trips');
  await click(byRole(dialog, 'button', 'Rename'));
  await waitFor(() => expect(byRole(dialog, 'alert').textContent).toBe('The folder could not be found.'));
  expect(view.container.querySelector('dialog')).not.toBeNull();
});

test('deleting the folder on screen goes to the account’s inbox', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const receipts = (await engine.mail.listFolders({ accountId: '1001' })).find((folder) => folder.path === 'Receipts')!;
  const view = await renderApp({ engine, path: `/mail/1001/${receipts.id}` });
  const alice = byRole(byRole(view.container, 'navigation', 'Mailboxes'), 'region', 'alice@tern.test');
  await waitFor(() => expect(folderNames(alice)).toContain('0:Receipts'));
  await click(byRole(alice, 'button', 'More actions for Receipts'));
  await click(byRole(alice, 'menuitem', 'Delete…'));
  await click(byRole(await waitFor(() => byRole(view.container, 'dialog', 'Delete “Receipts”?')), 'button', 'Delete folder'));
  await waitFor(() => expect(view.pathname()).toBe(`/mail/1001/${engine.folderOf('1001', 'inbox').id}`));
});
