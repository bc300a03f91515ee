// @vitest-environment happy-dom
/**
 * "Select all N conversations" (Gmail): after Select all takes the loaded rows, the
 * mailbox offers the whole list; chosen, toolbar buttons and keys go to the engine by
 * scope (runOnScope), with progress and one confirmation naming the count.
 */
import { afterEach, expect, test } from 'vitest';
import type { ThreadRow } from '../../../shared/worker-mail-api';
import type { HeldList } from '../../../src-ui/state/thread-list/list-patch';
import { selectAllState } from '../../../src-ui/state/thread-list/scope-selection';
import { EMPTY_SELECTION, selectRange } from '../../../src-ui/state/thread-list/selection';
import { createFakeEngine } from './fake-mail-engine';
import { byRole, click, press, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const row = (i: number) => ({ key: `1:t${i}`, accountId: '1', threadId: `t${i}` }) as ThreadRow;
const held = (total: number, loaded: number): HeldList => ({ subscriptionId: 's', total, offset: 0, rows: Array.from({ length: loaded }, (_, i) => row(i)), complete: true });

test('the offer shows only when every loaded row is checked and the list holds more; chosen, it says all', () => {
  const list = held(300, 64);
  const all = selectRange(EMPTY_SELECTION, list.rows);
  expect(selectAllState({ held: list, selection: all, allInScope: false })).toEqual({ kind: 'offer', selected: 64, total: 300 });
  expect(selectAllState({ held: list, selection: selectRange(EMPTY_SELECTION, list.rows.slice(1)), allInScope: false })).toEqual({ kind: 'none' });
  // Everything is loaded: nothing more to offer.
  const small = held(20, 20);
  expect(selectAllState({ held: small, selection: selectRange(EMPTY_SELECTION, small.rows), allInScope: false })).toEqual({ kind: 'none' });
  expect(selectAllState({ held: list, selection: EMPTY_SELECTION, allInScope: false })).toEqual({ kind: 'none' });
  expect(selectAllState({ held: list, selection: all, allInScope: true })).toEqual({ kind: 'all', total: 300 });
});

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const rows = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')];

test('select all on the page, then all N in the folder: Archive runs on the whole scope, with the count in the confirmation', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  const toolbar = byRole(view.container, 'toolbar', 'Conversation actions');
  await click(byRole(toolbar, 'checkbox', 'Select all conversations'));
  const offer = await waitFor(() => byRole(view.container, 'button', /^Select all 240 conversations in Inbox$/));
  await click(offer);
  await waitFor(() => byRole(view.container, 'status', /All 240 conversations in Inbox are selected/));
  expect(view.container.querySelector('.toolbar-count')?.textContent).toBe('240 selected');

  await click(byRole(toolbar, 'button', 'Archive'));
  const asked = engine.calls.filter((call) => call.method === 'commands.runOnScope').map((call) => call.params);
  expect(asked).toEqual([{ scope: { kind: 'folder', accountId: '1001', folderId: '1001' }, command: { kind: 'archive' } }]);
  const toast = await waitFor(() => byRole(view.container, 'status', /240 conversations archived\./));
  await waitFor(() => expect(rows(view.container)).toHaveLength(0));

  // Undo puts the whole folder back, as for any move.
  await click(byRole(toast, 'button', 'Undo'));
  const restores = engine.calls.filter((call) => call.method === 'commands.run' && (call.params as { kind: string }).kind === 'restore');
  expect(restores).toHaveLength(1);
  expect((restores[0]!.params as { threadIds: string[] }).threadIds).toHaveLength(240);
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
});

test('unchecking a row ends "all in the folder"; the next key acts on the checked rows only', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rows(view.container).length).toBeGreaterThan(6));
  await click(byRole(byRole(view.container, 'toolbar', 'Conversation actions'), 'checkbox', 'Select all conversations'));
  await click(await waitFor(() => byRole(view.container, 'button', /^Select all 240 conversations/)));
  await click(rows(view.container)[0]!, { ctrlKey: true });
  expect(view.container.querySelector('.select-all-banner')).toBeNull();
  await press('e');
  expect(engine.calls.some((call) => call.method === 'commands.runOnScope')).toBe(false);
  const archived = engine.calls.filter((call) => call.method === 'commands.run').at(-1)?.params as { threadIds: string[] };
  expect(archived.threadIds.length).toBeGreaterThan(6);
  expect(archived.threadIds.length).toBeLessThan(240);
});
