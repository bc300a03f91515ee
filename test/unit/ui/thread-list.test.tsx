// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { FIRST_WINDOW_ROWS } from '../../../src-ui/kit/virtual-window';
import { createFakeEngine, DEMO_LOGINS, type FakeEngine } from './fake-mail-engine';
import { click, renderApp, unmountAll, waitFor } from './render-app';

afterEach(() => {
  unmountAll();
  vi.restoreAllMocks();
});

const BIG = 100_000;
function bigEngine(): FakeEngine {
  const [alice, bob] = DEMO_LOGINS;
  return createFakeEngine({ logins: [{ ...alice!, threads: { inbox: BIG } }, bob!] });
}

const listbox = (container: HTMLElement) => container.querySelector<HTMLElement>('#thread-list')!;
const options = (container: HTMLElement) => [...listbox(container).querySelectorAll<HTMLElement>('[role="option"]')];
const realOptions = (container: HTMLElement) => options(container).filter((option) => option.getAttribute('aria-disabled') !== 'true');

async function scrollTo(element: HTMLElement, top: number) {
  await act(async () => {
    element.scrollTop = top;
    element.dispatchEvent(new Event('scroll'));
    await new Promise((resolve) => setTimeout(resolve, 40)); // a frame, then the window move
  });
}

test('100,000 threads: the DOM holds at most ~100 rows, with the list’s real size in aria', async () => {
  const view = await renderApp({ engine: bigEngine(), path: '/mail/1001/1001' });
  await waitFor(() => expect(realOptions(view.container).length).toBeGreaterThan(0));
  const list = listbox(view.container);
  expect(list.getAttribute('aria-multiselectable')).toBe('true');
  expect(list.getAttribute('aria-label')).toBe('Inbox');
  expect(options(view.container).length).toBeLessThanOrEqual(100);
  expect(options(view.container)[0]?.getAttribute('aria-setsize')).toBe(String(BIG));
  expect(options(view.container)[0]?.getAttribute('aria-posinset')).toBe('1');
  const spacer = list.firstElementChild as HTMLElement;
  expect(spacer.style.height).toBe(`${BIG * 84}px`);
  const first = view.engine.calls.find((call) => call.method === 'mail.watchThreadList')?.params as { window: { offset: number; limit: number } };
  expect(first.window).toEqual({ offset: 0, limit: FIRST_WINDOW_ROWS });
});

test('scrolling moves the worker window; rows outside it show as placeholders until it arrives', async () => {
  const view = await renderApp({ engine: bigEngine(), path: '/mail/1001/1001' });
  await waitFor(() => expect(realOptions(view.container).length).toBeGreaterThan(0));
  const list = listbox(view.container);
  // Scrolling a little inside the held window asks nothing.
  await scrollTo(list, 84 * 8);
  expect(view.engine.calls.filter((call) => call.method === 'mail.moveWindow')).toHaveLength(0);
  // A jump to the middle moves the window there.
  await scrollTo(list, 84 * 50_000);
  await waitFor(() => expect(view.engine.calls.some((call) => call.method === 'mail.moveWindow')).toBe(true));
  const moved = view.engine.calls.filter((call) => call.method === 'mail.moveWindow').at(-1)?.params as { window: { offset: number } };
  expect(moved.window.offset).toBeGreaterThan(49_800);
  expect(moved.window.offset).toBeLessThan(50_000);
  await waitFor(() => expect(realOptions(view.container).some((option) => option.getAttribute('aria-posinset') === '50001')).toBe(true));
  expect(options(view.container).length).toBeLessThanOrEqual(100);
  const positions = options(view.container).map((option) => Number(option.getAttribute('aria-posinset')));
  expect(Math.min(...positions)).toBeGreaterThanOrEqual(50_000 - 8);
});

test('a patch changes only the row that changed (rows are memoised, unchanged rows keep their objects)', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(realOptions(view.container).length).toBeGreaterThan(5));
  const target = engine.threadsOf('1001', 'inbox')[3]!;
  const rowOf = (node: Node | null): Element | null | undefined => (node instanceof Element ? node : node?.parentElement)?.closest('[role="option"]');
  const labelBefore = view.container.querySelector(`[id="thread-${target.key}"]`)?.getAttribute('aria-label');
  const touched = new Set<string>();
  const observer = new MutationObserver((records) => records.forEach((record) => touched.add(rowOf(record.target)?.id ?? '(outside a row)')));
  observer.observe(listbox(view.container), { subtree: true, childList: true, attributes: true, characterData: true });
  // Each row render writes its time once as ISO (the <time> element): one call, one render.
  const renders = vi.spyOn(Date.prototype, 'toISOString');
  await act(async () => {
    // Another tab stars the thread: the worker pushes one changed row.
    await engine.commands.run({ command: { kind: 'star', accountId: '1001', threadIds: [target.threadId], starred: !target.starred } });
  });
  await waitFor(() => expect(view.container.querySelector(`[id="thread-${target.key}"]`)?.getAttribute('aria-label')).not.toBe(labelBefore));
  observer.disconnect();
  expect([...touched]).toEqual([`thread-${target.key}`]);
  expect(renders).toHaveBeenCalledTimes(1);
});

test('new mail pushed by the worker shows at once, on top', async () => {
  const engine = createFakeEngine();
  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  await waitFor(() => expect(realOptions(view.container).length).toBeGreaterThan(0));
  await act(async () => {
    engine.deliver({ accountId: '1002', subject: 'Fresh from the server', from: { name: 'Dana Fox', email: 'dana@fox.test' } });
  });
  await waitFor(() => expect(realOptions(view.container)[0]?.getAttribute('aria-label')).toContain('Fresh from the server'));
  expect(realOptions(view.container)[0]?.getAttribute('aria-label')).toMatch(/^Unread, Dana Fox/);
});

test('click opens; ctrl-click toggles; shift-click selects the range; the avatar toggles too', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(realOptions(view.container).length).toBeGreaterThan(8));
  const rows = () => realOptions(view.container);
  await click(rows()[1]);
  expect(view.search().thread).toBe(rows()[1]!.id.slice('thread-'.length));
  await click(rows()[2], { ctrlKey: true });
  await click(rows()[5], { shiftKey: true });
  expect(rows().map((row) => row.getAttribute('aria-selected'))).toEqual(rows().map((_, i) => String(i >= 2 && i <= 5)));
  await click(rows()[3], { metaKey: true });
  expect(rows()[3]?.getAttribute('aria-selected')).toBe('false');
  await click(rows()[7]!.querySelector('.row-avatar'));
  expect(rows()[7]?.getAttribute('aria-selected')).toBe('true');
  expect(view.container.querySelector('.toolbar-count')?.textContent).toBe('4 selected');
});

test('empty folders and searches without results say so', async () => {
  const view = await renderApp({ path: '/mail/1001/1002' });
  await waitFor(() => expect(view.container.textContent).toContain('No drafts'));
  expect(listbox(view.container).hidden).toBe(true);
  const search = await renderApp({ path: '/mail/unified/inbox?q=nothing-matches-this' });
  await waitFor(() => expect(search.container.textContent).toContain('No results for “nothing-matches-this”'));
});
