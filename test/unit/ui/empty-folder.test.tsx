// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const rows = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('#thread-list [role="option"]:not([aria-disabled="true"])')];
const empties = (engine: ReturnType<typeof createFakeEngine>) => engine.calls.filter((call) => call.method === 'folders.emptyFolder').map((call) => call.params);

async function openFolder(role: 'trash' | 'junk', count: number) {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  for (let i = 0; i < count; i++) engine.deliver({ accountId: '1001', folderRole: role, subject: `Old ${i}`, from: { name: 'Someone', email: 'someone@example.org' } });
  const folder = engine.folderOf('1001', role);
  const view = await renderApp({ engine, path: `/mail/1001/${folder.id}` });
  await waitFor(() => expect(rows(view.container)).toHaveLength(count));
  return { engine, view };
}

test('Empty Trash now asks first with the count, then deletes only Trash, and says how many went', async () => {
  const { engine, view } = await openFolder('trash', 3);
  const inboxBefore = engine.threadsOf('1001', 'inbox').length;
  const button = await waitFor(() => byRole(view.container, 'button', 'Empty Trash now'));
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  await click(button);
  const dialog = await waitFor(() => byRole(view.container, 'dialog', 'Empty Trash?'));
  expect(dialog.textContent).toContain('All 3 conversations in Trash will be deleted forever. Nothing else is deleted, and this cannot be undone.');
  // Cancel (Escape) deletes nothing.
  await press('Escape', {}, document.activeElement ?? dialog);
  await waitFor(() => expect(view.container.querySelector('dialog')).toBeNull());
  expect(empties(engine)).toEqual([]);

  await click(byRole(view.container, 'button', 'Empty Trash now'));
  await click(byRole(await waitFor(() => byRole(view.container, 'dialog', 'Empty Trash?')), 'button', 'Empty Trash'));
  await waitFor(() => expect(view.container.querySelector('dialog')).toBeNull());
  expect(empties(engine)).toEqual([{ accountId: '1001', role: 'trash' }]);
  await waitFor(() => expect(view.container.textContent).toContain('Trash emptied: 3 messages deleted forever.'));
  await waitFor(() => expect(rows(view.container)).toHaveLength(0));
  expect(engine.threadsOf('1001', 'inbox')).toHaveLength(inboxBefore);
});

test('in Spam the button is Empty Spam now; an empty folder has it disabled; the inbox has none', async () => {
  const { engine, view } = await openFolder('junk', 1);
  await click(await waitFor(() => byRole(view.container, 'button', 'Empty Spam now')));
  const dialog = await waitFor(() => byRole(view.container, 'dialog', 'Empty Spam?'));
  expect(dialog.textContent).toContain('The 1 conversation in Spam will be deleted forever.');
  await click(byRole(dialog, 'button', 'Empty Spam'));
  await waitFor(() => expect(empties(engine)).toEqual([{ accountId: '1001', role: 'junk' }]));
  await waitFor(() => expect((byRole(view.container, 'button', 'Empty Spam now') as HTMLButtonElement).disabled).toBe(true));
  await click(byRole(byRole(view.container, 'navigation', 'Mailboxes'), 'link', /^Inbox/));
  await waitFor(() => expect(view.container.querySelector('.toolbar-empty')).toBeNull());
});
