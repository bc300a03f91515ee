// @vitest-environment happy-dom
/**
 * The list beside the reading pane renders without reading the layout (no forced synchronous
 * layout in the mail screen's first render, issue 13): its width comes from CSS and the
 * mailbox body's width from a ResizeObserver, whose reports this test plays by hand.
 */
import { act } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { LIST_WIDTH_STORAGE_KEY } from '../../../src-ui/state/pane-width';
import { byRole, memoryStorage, renderApp, unmountAll, waitFor } from './render-app';

/** The observers the page made, to report a size the way the browser would after a layout. */
const observers: { callback: ResizeObserverCallback; targets: Set<Element> }[] = [];
class ScriptedResizeObserver {
  private readonly entry: { callback: ResizeObserverCallback; targets: Set<Element> };
  constructor(callback: ResizeObserverCallback) {
    this.entry = { callback, targets: new Set() };
    observers.push(this.entry);
  }
  observe(target: Element) {
    this.entry.targets.add(target);
  }
  unobserve(target: Element) {
    this.entry.targets.delete(target);
  }
  disconnect() {
    this.entry.targets.clear();
  }
}

function report(target: Element, width: number, height = 600) {
  for (const observer of observers) {
    if (!observer.targets.has(target)) continue;
    const entry = { target, contentRect: { width, height } } as unknown as ResizeObserverEntry;
    observer.callback([entry], observer as unknown as ResizeObserver);
  }
}

const layoutReads: string[] = [];
beforeEach(() => {
  observers.length = 0;
  layoutReads.length = 0;
  vi.stubGlobal('ResizeObserver', ScriptedResizeObserver);
  const proto = HTMLElement.prototype;
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    layoutReads.push(`getBoundingClientRect ${this.className}`);
    return { x: 0, y: 0, left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) } as DOMRect;
  });
  for (const property of ['offsetWidth', 'offsetHeight', 'clientWidth', 'clientHeight', 'scrollHeight'] as const) {
    const owner = Object.getOwnPropertyDescriptor(proto, property) ? proto : Element.prototype;
    vi.spyOn(owner as HTMLElement, property, 'get').mockImplementation(function (this: Element) {
      layoutReads.push(`${property} ${this.className}`);
      return 0;
    });
  }
});
afterEach(() => {
  unmountAll();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

test('the split renders with no layout read; the observed width places the divider, and a narrow one gives one pane', async () => {
  const storage = memoryStorage({ [LIST_WIDTH_STORAGE_KEY]: '380' });
  const view = await renderApp({ path: '/mail/1001/1001', storage });
  await waitFor(() => expect(view.container.querySelectorAll('#thread-list [role="option"]').length).toBeGreaterThan(3));
  const body = view.container.querySelector<HTMLElement>('.mailbox-body')!;
  const list = view.container.querySelector<HTMLElement>('.mailbox-list')!;
  // The chosen width goes to the CSS (layout.css clamps it); nothing was measured to render it.
  expect(list.style.getPropertyValue('--list-width')).toBe('380px');
  expect(layoutReads.filter((read) => /mailbox|thread-list|pane/.test(read))).toEqual([]);
  // No width reported yet: no divider numbers made up from a zero width.
  expect(view.container.querySelector('[role="separator"]')).toBeNull();

  await act(async () => report(body, 1000));
  const divider = byRole(view.container, 'separator', 'Resize reading pane');
  expect(divider.getAttribute('aria-valuenow')).toBe('380');
  expect(divider.getAttribute('aria-valuemax')).toBe(String(1000 - 480));
  expect(view.container.querySelector('.mailbox-narrow')).toBeNull();

  // Too narrow for a 300 px list beside a 480 px pane: one pane at a time, no divider.
  await act(async () => report(body, 700));
  await waitFor(() => expect(view.container.querySelector('.mailbox-narrow')).not.toBeNull());
  expect(view.container.querySelector('[role="separator"]')).toBeNull();
  expect(layoutReads.filter((read) => /mailbox|thread-list|pane/.test(read))).toEqual([]);
});
