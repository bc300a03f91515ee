// @vitest-environment happy-dom
/**
 * After an action: Undo on a move's toast (button and `z`), and where the focus goes when
 * the open thread closes or leaves the list (never to the page).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { focusAfterRemoval, nextOpenAfterRemoval } from '../../../src-ui/app/thread-focus';
import type { HeldList } from '../../../src-ui/state/thread-list/list-patch';
import type { ThreadRow } from '../../../shared/worker-mail-api';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, memoryStorage, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];
const keyOf = (row: HTMLElement | undefined) => row?.id.slice('thread-'.length);
const runs = (engine: ReturnType<typeof createFakeEngine>) => engine.calls.filter((call) => call.method === 'commands.run').map((call) => call.params as { kind: string });

async function openInbox(path = '/mail/1001/1001') {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  return view;
}

describe('which thread opens next and where the focus goes (pure)', () => {
  const row = (key: string) => ({ key }) as ThreadRow;
  const held = (keys: string[], offset = 0, total = keys.length + offset): HeldList => ({ subscriptionId: 's', total, offset, rows: keys.map(row), complete: true }) as HeldList;

  test('the next older thread, else the newer one, skipping the others that leave; none when nothing is left', () => {
    expect(nextOpenAfterRemoval(held(['a', 'b', 'c']), 'b', new Set(['b']))).toBe('c');
    expect(nextOpenAfterRemoval(held(['a', 'b', 'c', 'd']), 'b', new Set(['b', 'c']))).toBe('d');
    expect(nextOpenAfterRemoval(held(['a', 'b', 'c']), 'c', new Set(['c']))).toBe('b');
    expect(nextOpenAfterRemoval(held(['a', 'b', 'c']), 'c', new Set(['b', 'c']))).toBe('a');
    expect(nextOpenAfterRemoval(held(['a']), 'a', new Set(['a']))).toBeNull();
    expect(nextOpenAfterRemoval(held(['a', 'b']), 'x', new Set(['x']))).toBeNull(); // not in the list shown
    // The next row is not loaded (a hole in the window): the newer one rather than a guess.
    expect(nextOpenAfterRemoval(held(['a', 'b'], 0, 5), 'b', new Set(['b']))).toBe('a');
  });

  test('focus: stays in the list when it was there (split view), else the conversation; the list when nothing is left; a toolbar button keeps it', () => {
    expect(focusAfterRemoval({ next: 'c', focusedIn: 'list', listHiddenWhileOpen: false })).toBe('list');
    expect(focusAfterRemoval({ next: 'c', focusedIn: 'list', listHiddenWhileOpen: true })).toBe('conversation');
    expect(focusAfterRemoval({ next: 'c', focusedIn: 'conversation', listHiddenWhileOpen: false })).toBe('conversation');
    expect(focusAfterRemoval({ next: 'c', focusedIn: 'page', listHiddenWhileOpen: false })).toBe('conversation');
    expect(focusAfterRemoval({ next: null, focusedIn: 'conversation', listHiddenWhileOpen: true })).toBe('list');
    expect(focusAfterRemoval({ next: 'c', focusedIn: 'other', listHiddenWhileOpen: false })).toBe('keep');
  });
});

describe('Undo', () => {
  test('archive shows "Conversation archived." with Undo; Undo runs the engine’s inverse and the row comes back', async () => {
    const view = await openInbox();
    const list = listbox(view.container);
    list.focus();
    const first = keyOf(rows(view.container)[0])!;
    await press('e', {}, list);
    await waitFor(() => expect(rows(view.container).some((row) => keyOf(row) === first)).toBe(false));
    const status = byRole(byRole(view.container, 'region', 'Notifications'), 'status');
    await waitFor(() => expect(status.textContent).toContain('Conversation archived.'));
    const undo = byRole(status, 'button', 'Undo');
    expect(undo.getAttribute('aria-keyshortcuts')).toBe('z');

    undo.focus(); // reached with Tab: pressing it must not drop the focus to the page as the toast goes
    await click(undo);
    expect(runs(view.engine).at(-1)).toMatchObject({ kind: 'restore', accountId: '1001', threadIds: [first.split(':')[1]] });
    expect(document.activeElement).toBe(listbox(view.container));
    await waitFor(() => expect(rows(view.container).some((row) => keyOf(row) === first)).toBe(true));
    await waitFor(() => expect(status.textContent).toContain('Action undone.'));
    expect(status.textContent).not.toContain('Conversation archived.'); // the used toast is gone
  });

  test('two selected moved to Trash: "2 conversations moved to Trash."; z undoes both; z again does nothing', async () => {
    const view = await openInbox();
    const list = listbox(view.container);
    list.focus();
    const picked = rows(view.container).slice(0, 2).map(keyOf);
    await press('x', {}, list);
    await press('j', {}, list);
    await press('x', {}, list);
    await press('#', { shiftKey: true }, list);
    await waitFor(() => expect(rows(view.container).filter((row) => picked.includes(keyOf(row))).length).toBe(0));
    const status = byRole(byRole(view.container, 'region', 'Notifications'), 'status');
    await waitFor(() => expect(status.textContent).toContain('2 conversations moved to Trash.'));

    await press('z', {}, list);
    await waitFor(() => expect(rows(view.container).filter((row) => picked.includes(keyOf(row))).length).toBe(2));
    const restores = runs(view.engine).filter((run) => run.kind === 'restore');
    expect(restores).toHaveLength(1);
    expect((restores[0] as unknown as { threadIds: string[] }).threadIds.sort()).toEqual(picked.map((key) => key!.split(':')[1]).sort());
    await press('z', {}, list);
    expect(runs(view.engine).filter((run) => run.kind === 'restore')).toHaveLength(1);
  });

  test('unified inbox: threads of two accounts archived together are put back by one restore per account', async () => {
    const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
    const view = await renderApp({ engine, path: '/mail/unified/inbox' });
    await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
    const all = rows(view.container);
    const picked = [all.find((row) => keyOf(row)!.startsWith('1001:'))!, all.find((row) => keyOf(row)!.startsWith('1002:'))!];
    for (const row of picked) await click(row, { ctrlKey: true });
    const list = listbox(view.container);
    list.focus();
    await press('e', {}, list);
    const status = byRole(byRole(view.container, 'region', 'Notifications'), 'status');
    await waitFor(() => expect(status.textContent).toContain('2 conversations archived.'));
    await press('z', {}, list);
    const restores = runs(engine).filter((run) => run.kind === 'restore') as unknown as { accountId: string; threadIds: string[] }[];
    expect(restores.map((run) => [run.accountId, run.threadIds]).sort()).toEqual(picked.map((row) => keyOf(row)!.split(':')).map(([account, thread]) => [account, [thread]]).sort());
    await waitFor(() => expect(rows(view.container).filter((row) => picked.some((one) => keyOf(one) === keyOf(row)))).toHaveLength(2));
  });

  test('a refused undo says why in the catalogue’s words', async () => {
    const view = await openInbox();
    const list = listbox(view.container);
    list.focus();
    await press('e', {}, list);
    const region = byRole(view.container, 'region', 'Notifications');
    await waitFor(() => byRole(byRole(region, 'status'), 'button', 'Undo'));
    view.engine.failNextCommand('restore', 'MailLockUnacquired');
    await press('z', {}, list);
    await waitFor(() => expect(byRole(region, 'alert').textContent).toContain('Could not undo'));
    expect(byRole(region, 'alert').textContent).toContain('The mailbox is busy. Please try again.');
  });
});

describe('focus after closing or removing the open thread', () => {
  test('Esc from an open thread: the list has the focus, its cursor on that thread’s row', async () => {
    const view = await openInbox();
    const third = keyOf(rows(view.container)[2])!;
    await click(rows(view.container)[2]);
    await waitFor(() => expect(view.container.querySelector(`.reading-pane[data-thread-key="${third}"]`)).not.toBeNull());
    const pane = view.container.querySelector<HTMLElement>('.reading-pane-scroll')!;
    pane.focus();
    await press('Escape', {}, pane);
    expect(view.search().thread).toBeUndefined();
    await waitFor(() => expect(document.activeElement).toBe(listbox(view.container)));
    expect(listbox(view.container).getAttribute('aria-activedescendant')).toBe(`thread-${third}`);
  });

  test('e on the open thread (focus in the conversation): the next older thread opens and the conversation has the focus', async () => {
    const view = await openInbox();
    const [, second, third] = rows(view.container).map(keyOf);
    await click(rows(view.container)[1]);
    await waitFor(() => expect(view.container.querySelector(`.reading-pane[data-thread-key="${second}"]`)).not.toBeNull());
    document.body.focus();
    await press('e', {}, document.body);
    expect(view.search().thread).toBe(third);
    await waitFor(() => expect(document.activeElement).toBe(view.container.querySelector(`.reading-pane[data-thread-key="${third}"] .reading-pane-scroll`)));
    expect(listbox(view.container).getAttribute('aria-activedescendant')).toBe(`thread-${third}`);
  });

  test('single thread view: Enter on a row opens it in place of the list and the conversation takes the focus; u gives it back to the row', async () => {
    const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
    const view = await renderApp({ engine, path: '/mail/1001/1001', storage: memoryStorage({ 'tern.view': 'single' }) });
    await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(3));
    const list = listbox(view.container);
    list.focus();
    await press('j', {}, list);
    const second = keyOf(rows(view.container)[1])!;
    await press('Enter', {}, list);
    expect((view.container.querySelector('.mailbox-list') as HTMLElement).hidden).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(view.container.querySelector(`.reading-pane[data-thread-key="${second}"] .reading-pane-scroll`)));
    await press('u', {}, document.activeElement!);
    await waitFor(() => expect(document.activeElement).toBe(listbox(view.container)));
    expect(listbox(view.container).getAttribute('aria-activedescendant')).toBe(`thread-${second}`);
  });

  test('an open thread that disappears (its draft sent) closes quietly instead of "could not be found"', async () => {
    const view = await openInbox();
    const first = keyOf(rows(view.container)[0])!;
    await click(rows(view.container)[0]);
    await waitFor(() => expect(view.container.querySelector(`.reading-pane[data-thread-key="${first}"] .tern-conversation, .reading-pane[data-thread-key="${first}"] .conversation`)).not.toBeNull());
    // Gone from the engine, as a sent draft's thread is (here: deleted forever by another tab).
    await view.engine.commands.run({ command: { kind: 'delete', accountId: '1001', threadIds: [first.split(':')[1]!] } });
    await waitFor(() => expect(view.search().thread).toBeUndefined());
    expect(view.container.querySelector('.reading-pane-error')).toBeNull();
  });
});
