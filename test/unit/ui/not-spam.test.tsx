// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const rows = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('#thread-list [role="option"]:not([aria-disabled="true"])')];
const runs = (engine: ReturnType<typeof createFakeEngine>) => engine.calls.filter((call) => call.method === 'commands.run').map((call) => call.params as { kind: string });

async function openSpam() {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  for (const subject of ['Win a cruise', 'Cheap watches', 'Your invoice (really)']) {
    engine.deliver({ accountId: '1001', folderRole: 'junk', subject, from: { name: 'Someone', email: 'someone@example.org' } });
  }
  const spam = engine.folderOf('1001', 'junk');
  const view = await renderApp({ engine, path: `/mail/1001/${spam.id}` });
  await waitFor(() => expect(rows(view.container)).toHaveLength(3));
  return { engine, view };
}

test('in Spam the toolbar offers Not spam (not Report spam); it takes the thread to the Inbox with Undo', async () => {
  const { engine, view } = await openSpam();
  const toolbar = byRole(view.container, 'toolbar', 'Conversation actions');
  expect(toolbar.querySelector('[aria-label="Report spam"]')).toBeNull();
  await click(rows(view.container)[0]);
  const notSpam = byRole(toolbar, 'button', 'Not spam');
  expect(notSpam.getAttribute('aria-keyshortcuts')).toBe('!');
  await click(notSpam);
  await waitFor(() => expect(rows(view.container)).toHaveLength(2));
  expect(runs(engine).filter((command) => command.kind === 'notspam')).toEqual([expect.objectContaining({ kind: 'notspam', accountId: '1001' })]);
  await waitFor(() => expect(view.container.textContent).toContain('Conversation marked as not spam and moved to Inbox.'));
  byRole(view.container, 'button', 'Undo');
  expect(engine.threadsOf('1001', 'inbox').some((row) => row.subject === 'Your invoice (really)')).toBe(true);
});

test('! toggles as in Gmail: Not spam in Spam, Report spam elsewhere', async () => {
  const { engine, view } = await openSpam();
  const list = view.container.querySelector<HTMLElement>('#thread-list')!;
  list.focus();
  await press('!', {}, list);
  await waitFor(() => expect(rows(view.container)).toHaveLength(2));
  expect(runs(engine).map((command) => command.kind)).toEqual(['notspam']);
});
