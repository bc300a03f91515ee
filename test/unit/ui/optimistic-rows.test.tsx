// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import type { MailCommand } from '../../../shared/worker-mail-api';
import { createFakeEngine } from './fake-mail-engine';
import { press, renderApp, step, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];
const cursorRow = (container: HTMLElement) => listbox(container).querySelector<HTMLElement>('.thread-row.is-cursor');

/** An engine whose commands reach it only when the test lets them (a slow worker). */
function slowCommands() {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const run = engine.commands.run.bind(engine.commands);
  const waiting: (() => void)[] = [];
  engine.commands.run = (params: { command: MailCommand }) => new Promise<void>((resolve) => waiting.push(resolve)).then(() => run(params));
  const releaseAll = () => step(() => waiting.splice(0).forEach((release) => release()));
  return { engine, releaseAll, waiting };
}

async function cursorOnUnread(container: HTMLElement) {
  const list = listbox(container);
  list.focus();
  for (let i = 0; i < 30 && !cursorRow(container)?.classList.contains('is-unread'); i++) await press('j', {}, list);
  const row = cursorRow(container)!;
  expect(row.classList.contains('is-unread')).toBe(true);
  return row.id;
}

test('Shift+I and s show on the row at once, before the worker has taken the command', async () => {
  const { engine, releaseAll, waiting } = slowCommands();
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(5));
  const id = await cursorOnUnread(view.container);
  const starredBefore = document.getElementById(id)!.querySelector('.row-star') !== null;
  await press('I', { shiftKey: true }, listbox(view.container));
  await press('s', {}, listbox(view.container));
  expect(waiting).toHaveLength(2); // nothing reached the worker yet; both show
  const row = document.getElementById(id)!;
  expect(row.classList.contains('is-unread')).toBe(false);
  expect(row.querySelector('.row-star') !== null).toBe(!starredBefore);
  expect(row.classList.contains('is-pending')).toBe(true);
  await releaseAll();
  await waitFor(() => expect(engine.calls.filter((call) => call.method === 'commands.run')).toHaveLength(2));
  // The worker's list now says the same: the row stays as it is.
  await waitFor(() => expect(document.getElementById(id)?.classList.contains('is-unread')).toBe(false));
  expect(document.getElementById(id)!.querySelector('.row-star') !== null).toBe(!starredBefore);
});

test('e in the inbox takes the row out at once and the cursor moves to the next; a refusal brings it back', async () => {
  const { engine, releaseAll, waiting } = slowCommands();
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(5));
  const list = listbox(view.container);
  list.focus();
  await press('j', {}, list);
  const ids = rows(view.container).map((row) => row.id);
  await press('e', {}, list);
  expect(waiting).toHaveLength(1);
  expect(document.getElementById(ids[1]!)).toBeNull();
  expect(cursorRow(view.container)?.id).toBe(ids[2]);
  expect(rows(view.container)[1]?.getAttribute('aria-posinset')).toBe('2');

  await releaseAll();
  await waitFor(() => expect(engine.calls.filter((call) => call.method === 'commands.run')).toHaveLength(1));

  // The gateway refuses the next one: the row comes back when the worker reverts it.
  engine.failNextCommand('archive', 'MailLockUnacquired');
  await press('e', {}, list);
  expect(document.getElementById(ids[2]!)).toBeNull();
  await releaseAll();
  await waitFor(() => expect(document.getElementById(ids[2]!)).not.toBeNull());
  expect(document.getElementById(ids[1]!)).toBeNull();
});

test('e in search results waits for the worker (an archived thread may stay in the results)', async () => {
  const { engine, releaseAll, waiting } = slowCommands();
  const word = engine.threadsOf('1001', 'inbox')[0]!.subject.split(' ')[0]!;
  const view = await renderApp({ engine, path: `/mail/1001/1001?q=${encodeURIComponent(word)}` });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(0));
  const list = listbox(view.container);
  list.focus();
  const first = rows(view.container)[0]!.id;
  await press('e', {}, list);
  expect(waiting).toHaveLength(1);
  expect(document.getElementById(first)).not.toBeNull();
  await releaseAll();
});
