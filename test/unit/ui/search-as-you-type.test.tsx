// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import type { ListSnapshot, ListWindow, ListScope } from '../../../shared/worker-mail-api';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, renderApp, step, typeInto, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rowIds = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')].map((row) => row.id);

/** An engine whose list answers wait until the test releases them, by query. */
function heldSearches() {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const answer = engine.mail.watchThreadList.bind(engine.mail);
  const held = new Map<string, () => void>();
  engine.mail.watchThreadList = async (params: { scope: ListScope; window: ListWindow }, onPatch) => {
    const snapshot: Promise<ListSnapshot> = answer(params, onPatch);
    if (params.scope.kind !== 'search') return snapshot;
    await new Promise<void>((release) => held.set(params.scope.kind === 'search' ? params.scope.query : '', release));
    return snapshot;
  };
  return { engine, held };
}

test('every keystroke searches at once; an answer to a query typed over is dropped, whatever order the answers come in', async () => {
  const { engine, held } = heldSearches();
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rowIds(view.container).length).toBeGreaterThan(3));
  const subject = engine.threadsOf('1001', 'inbox')[0]!.subject;
  const word = subject.split(' ')[0]!.toLowerCase();
  const box = byRole(view.container, 'searchbox', 'Search mail') as HTMLInputElement;
  const queries = () => engine.calls.filter((call) => call.method === 'mail.watchThreadList').map((call) => (call.params as { scope: ListScope }).scope).filter((scope) => scope.kind === 'search').map((scope) => (scope.kind === 'search' ? scope.query : ''));

  // No typing delay: each keystroke reaches the worker before the next one (no timers run here).
  for (let length = 1; length <= word.length; length++) await typeInto(box, word.slice(0, length));
  await waitFor(() => expect(queries()).toEqual([...word].map((_, i) => word.slice(0, i + 1))));
  expect(view.search().q).toBe(word);
  expect(box.value).toBe(word); // our own queries echoing back through the address never undo a typed character
  expect(listbox(view.container).getAttribute('aria-busy')).toBe('true');

  // The answer to the whole word comes first; the older ones after it must not replace it.
  await step(() => held.get(word)?.());
  await waitFor(() => expect(listbox(view.container).getAttribute('aria-busy')).toBe('false'));
  const shown = rowIds(view.container);
  expect(shown.length).toBeGreaterThan(0);
  for (const [query, release] of held) if (query !== word) await step(release);
  expect(rowIds(view.container)).toEqual(shown);
  expect(listbox(view.container).getAttribute('aria-busy')).toBe('false');
  // Stale subscriptions are closed as their answers arrive.
  const unwatched = engine.calls.filter((call) => call.method === 'mail.unwatch').length;
  expect(unwatched).toBeGreaterThanOrEqual(word.length - 1);
});

test('one history entry per search: the first keystroke pushes it, the next ones replace it', async () => {
  const view = await renderApp({ engine: createFakeEngine({ loggedIn: ['alice@tern.test'] }), path: '/mail/1001/1001' });
  await waitFor(() => expect(rowIds(view.container).length).toBeGreaterThan(3));
  const history = view.app.router.history;
  const before = history.length;
  const box = byRole(view.container, 'searchbox', 'Search mail') as HTMLInputElement;
  for (const text of ['w', 'we', 'wee', 'week']) await typeInto(box, text);
  await waitFor(() => expect(view.search().q).toBe('week'));
  expect(history.length).toBe(before + 1);
  history.back();
  await waitFor(() => expect(view.search().q).toBeUndefined());
  await waitFor(() => expect(box.value).toBe(''));
});

test('the list stays mounted from the mailbox to its search and from one query to the next, keeping the last rows until the next arrive', async () => {
  const { engine, held } = heldSearches();
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rowIds(view.container).length).toBeGreaterThan(3));
  const list = listbox(view.container);
  const inbox = rowIds(view.container);
  const box = byRole(view.container, 'searchbox', 'Search mail') as HTMLInputElement;
  await typeInto(box, 'e');
  await waitFor(() => expect(held.has('e')).toBe(true));
  expect(listbox(view.container)).toBe(list);
  expect(rowIds(view.container)).toEqual(inbox);
  expect(list.getAttribute('aria-busy')).toBe('true');
  await step(() => held.get('e')?.());
  await waitFor(() => expect(listbox(view.container).getAttribute('aria-busy')).toBe('false'));
  expect(listbox(view.container)).toBe(list);
  const first = rowIds(view.container);
  expect(first.length).toBeGreaterThan(0);
  await typeInto(box, 'ex');
  await waitFor(() => expect(held.has('ex')).toBe(true));
  // Same element, old rows still there, marked busy.
  expect(listbox(view.container)).toBe(list);
  expect(rowIds(view.container)).toEqual(first);
  expect(list.getAttribute('aria-busy')).toBe('true');
  await step(() => held.get('ex')?.());
  await waitFor(() => expect(list.getAttribute('aria-busy')).toBe('false'));
  expect(listbox(view.container)).toBe(list);
});
