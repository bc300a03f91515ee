// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import type { ListScope } from '../../../../shared/worker-mail-api';
import { SEARCH_PROBLEM_DELAY_MS } from '../../../../src-ui/toolbar/SearchBox';
import { createFakeEngine } from '../fake-mail-engine';
import { accessibleName, byRole, click, press, renderApp, step, typeInto, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

const listbox = () => document.getElementById('thread-list')!;
const rowCount = () => listbox().querySelectorAll('[role="option"]:not([aria-disabled="true"])').length;
const alerts = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[role="alert"]')].map((alert) => alert.textContent ?? '').filter(Boolean);
const searchScopes = (engine: ReturnType<typeof createFakeEngine>) =>
  engine.calls
    .filter((call) => call.method === 'mail.watchThreadList')
    .map((call) => (call.params as { scope: ListScope }).scope)
    .filter((scope): scope is Extract<ListScope, { kind: 'search' }> => scope.kind === 'search');

async function openInbox(loggedIn = ['alice@tern.test']) {
  const view = await renderApp({ engine: createFakeEngine({ loggedIn }), path: '/mail/1001/1001' });
  await waitFor(() => expect(rowCount()).toBeGreaterThan(3));
  const box = byRole(view.container, 'searchbox', 'Search mail') as HTMLInputElement;
  return { view, box };
}

test('the engine is asked in the input event, before the address changes; the mailbox keeps that list', async () => {
  const { view, box } = await openInbox();
  const askedWithQ: unknown[] = [];
  const watch = view.engine.mail.watchThreadList.bind(view.engine.mail);
  view.engine.mail.watchThreadList = (params, onPatch) => {
    if (params.scope.kind === 'search') askedWithQ.push(view.search().q);
    return watch(params, onPatch);
  };
  box.focus();
  await typeInto(box, 'week');
  await waitFor(() => expect(view.search().q).toBe('week'));
  await waitFor(() => expect(rowCount()).toBeGreaterThan(0));
  expect(askedWithQ).toEqual([undefined]);
  expect(searchScopes(view.engine)).toEqual([{ kind: 'search', accountIds: ['1001'], query: 'week' }]);
  // A query typed over before the address caught up: the list shown is the latest one.
  await typeInto(box, 'weekl');
  await typeInto(box, 'weekly');
  await waitFor(() => expect(view.search().q).toBe('weekly'));
  await waitFor(() => expect(searchScopes(view.engine).at(-1)).toMatchObject({ query: 'weekly' }));
  expect(searchScopes(view.engine).map((scope) => scope.query)).toEqual(['week', 'weekl', 'weekly']);
});

test('the box is a named searchbox inside a search landmark', async () => {
  const { view, box } = await openInbox();
  expect(accessibleName(box)).toBe('Search mail');
  expect(box.closest('[role="search"]')).not.toBeNull();
  expect(byRole(view.container, 'button', 'Search operators').closest('[role="search"]')).toBe(box.closest('[role="search"]'));
});

test('an unknown operator is said by name under the box once typing pauses, the text kept and marked invalid', async () => {
  const { view, box } = await openInbox();
  box.focus();
  for (const text of ['f', 'fo', 'foo', 'foo:', 'foo:b', 'foo:bar']) await typeInto(box, text);
  // Not while typing: an operator half typed is not an error yet.
  expect(alerts(view.container)).toEqual([]);
  await waitFor(() => expect(alerts(view.container)).toEqual([expect.stringContaining('“foo:” is not a search operator')]), SEARCH_PROBLEM_DELAY_MS + 2000);
  expect(box.value).toBe('foo:bar');
  expect(view.search().q).toBe('foo:bar');
  expect(box.getAttribute('aria-invalid')).toBe('true');
  expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toContain('foo:');
  // The list's empty state says it cannot search, not "No results".
  expect(view.container.querySelector('.list-message')?.textContent).toMatch(/Can’t search for “foo:bar”/);
  // The catalogue's sentence is said once, under the box, not a second time in the list (the walkthrough's double message).
  expect(view.container.textContent?.split('“foo:” is not a search operator').length).toBe(2);
  expect(view.container.textContent).not.toContain('No results');
  expect(document.activeElement).toBe(box);

  // Fixing it takes the message away and searches.
  await typeInto(box, 'foo');
  await waitFor(() => expect(alerts(view.container)).toEqual([]));
  expect(box.hasAttribute('aria-invalid')).toBe(false);
});

test('Enter says at once what is wrong with a bad value and keeps the focus in the box; a valid query moves to the list', async () => {
  const { view, box } = await openInbox();
  box.focus();
  await typeInto(box, 'before:notadate');
  await step(() => box.form!.requestSubmit());
  expect(alerts(view.container)).toEqual(['“before:notadate” is not valid: before: takes a date such as 2026-01-31.']);
  expect(document.activeElement).toBe(box);
  await typeInto(box, 'week');
  await step(() => box.form!.requestSubmit());
  expect(alerts(view.container)).toEqual([]);
  expect(document.activeElement).toBe(listbox());
});

test('Escape leaves the search: the mailbox comes back and the focus goes to the list', async () => {
  const { view, box } = await openInbox();
  box.focus();
  await typeInto(box, 'week');
  await waitFor(() => expect(view.search().q).toBe('week'));
  await press('Escape', {}, box);
  await waitFor(() => expect(view.search().q).toBeUndefined());
  expect(box.value).toBe('');
  expect(document.activeElement).toBe(listbox());
  // With nothing typed, Escape still hands the keys back to the list.
  box.focus();
  await press('Escape', {}, box);
  expect(document.activeElement).toBe(listbox());
  // And `/` comes back to the box.
  await press('/', {}, listbox());
  expect(document.activeElement).toBe(box);
});

test('the operator list opens from the keyboard and writes the picked operator into the box', async () => {
  const { view, box } = await openInbox();
  const button = byRole(view.container, 'button', 'Search operators');
  await click(button);
  const menu = byRole(view.container, 'menu', 'Search operators');
  const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].map((item) => item.querySelector('.menu-item-label')?.textContent);
  expect(items).toEqual(['from:', 'to:', 'subject:', 'has:', 'is:', 'in:', 'label:', 'after:', 'before:']);
  expect(document.activeElement?.textContent).toContain('from:');
  await press('ArrowDown');
  await press('ArrowDown');
  await press('ArrowDown'); // has:
  expect(document.activeElement?.textContent).toContain('has:');
  await click(document.activeElement); // what Enter does on the item in a browser
  await waitFor(() => expect(box.value).toBe('has:attachment'));
  expect(document.activeElement).toBe(box);
  await waitFor(() => expect(view.search().q).toBe('has:attachment'));
});

test('a scope picked before typing is the one searched; a folder searches its account unless told otherwise', async () => {
  const { view, box } = await openInbox(['alice@tern.test', 'bob@kite.test']);
  const scope = view.container.querySelector<HTMLSelectElement>('select[aria-label="Search in"]')!;
  expect(scope.value).toBe('1001');
  await step(() => {
    scope.value = 'all';
    scope.dispatchEvent(new Event('change', { bubbles: true }));
  });
  expect(scope.value).toBe('all');
  await typeInto(box, 'week');
  await waitFor(() => expect(searchScopes(view.engine).at(-1)).toMatchObject({ query: 'week', accountIds: ['1001', '1002'] }));
  expect(view.search().in).toBe('all');
  await step(() => {
    scope.value = '1002';
    scope.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await waitFor(() => expect(searchScopes(view.engine).at(-1)).toMatchObject({ query: 'week', accountIds: ['1002'] }));
});
