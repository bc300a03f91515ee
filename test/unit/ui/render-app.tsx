/**
 * Mounts the whole app on the in-memory engine, in happy-dom, with a memory history and
 * a memory storage for preferences. Shared by the component tests of test/unit/ui.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { createMailApp, type MailApp } from '../../../src-ui/app/App';
import type { Locale } from '../../../shared/locales';
import type { PreferenceEnvironment } from '../../../src-ui/state/preferences';
import { createFakeEngine, type FakeEngine } from './fake-mail-engine';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export function memoryStorage(initial: Record<string, string> = {}): Storage {
  const values = new Map(Object.entries(initial));
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => void values.delete(key),
    setItem: (key, value) => void values.set(key, String(value)),
  };
}

export interface RenderedApp {
  readonly engine: FakeEngine;
  readonly app: MailApp;
  readonly container: HTMLElement;
  readonly storage: Storage;
  readonly pathname: () => string;
  readonly search: () => Record<string, unknown>;
  unmount(): void;
}

const mounted: (() => void)[] = [];

export async function renderApp(
  options: {
    engine?: FakeEngine;
    path?: string;
    storage?: Storage;
    preferences?: Partial<PreferenceEnvironment>;
    /** The UI's language (English when not given, whatever the test machine's languages). */
    locale?: Locale;
    /** Starts as the page does (main.tsx): the first screen decided and loaded before the first render. */
    asThePageDoes?: boolean;
    /** Sees the container before the first render (e.g. to observe every change). */
    beforeRender?: (container: HTMLElement, app: MailApp) => void;
  } = {},
): Promise<RenderedApp> {
  const engine = options.engine ?? createFakeEngine();
  const storage = options.storage ?? memoryStorage();
  const history = createMemoryHistory({ initialEntries: [options.path ?? '/'] });
  const app = createMailApp(engine, { history, preferences: { storage, ...options.preferences }, locale: options.locale ?? 'en' });
  if (options.asThePageDoes) await app.loadFirstScreen();
  const container = document.createElement('div');
  document.body.append(container);
  options.beforeRender?.(container, app);
  const root = createRoot(container);
  await act(async () => root.render(<app.MailApp />));
  const unmount = () => {
    act(() => root.unmount());
    app.state.stop();
    container.remove();
  };
  mounted.push(unmount);
  return {
    engine,
    app,
    container,
    storage,
    pathname: () => app.router.state.location.pathname,
    search: () => app.router.state.location.search as Record<string, unknown>,
    unmount,
  };
}

export function unmountAll() {
  while (mounted.length > 0) mounted.pop()!();
  document.body.innerHTML = '';
}

/** Retries an assertion inside act() until it passes (lazy routes, engine replies, timers). */
export async function waitFor<T>(check: () => T, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return check();
    } catch (error) {
      lastError = error;
    }
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
  throw lastError;
}

/** Runs something that changes state, then lets React and the fake engine settle. */
export async function step(run: () => unknown): Promise<void> {
  await act(async () => {
    await run();
  });
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
  });
}

export function press(key: string, init: KeyboardEventInit = {}, target: EventTarget = document.activeElement ?? document.body) {
  return step(() => target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init })));
}

export function click(element: Element | null | undefined, init: MouseEventInit = {}) {
  if (!element) throw new Error('Nothing to click.');
  return step(() => element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, ...init })));
}

/** Types into an uncontrolled or controlled input the way React notices. */
export function typeInto(input: HTMLInputElement, value: string) {
  return step(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export function byRole(container: ParentNode, role: string, name?: string | RegExp): HTMLElement {
  const all = [...container.querySelectorAll<HTMLElement>(`[role="${role}"], ${implicitRole(role)}`)];
  const found = all.find((element) => name === undefined || matchesName(accessibleName(element), name));
  if (!found) throw new Error(`No ${role}${name ? ` named ${String(name)}` : ''}. Found: ${all.map((element) => accessibleName(element)).join(' | ')}`);
  return found;
}

function implicitRole(role: string): string {
  switch (role) {
    case 'button':
      return 'button:not([role])';
    case 'link':
      return 'a[href]:not([role])';
    case 'textbox':
      return 'input:not([type]):not([role]), input[type="text"]:not([role]), input[type="email"]:not([role]), input[type="password"]:not([role])';
    case 'searchbox':
      return 'input[type="search"]:not([role])';
    case 'heading':
      return 'h1, h2, h3';
    case 'checkbox':
      return 'input[type="checkbox"]:not([role])';
    case 'navigation':
      return 'nav:not([role])';
    case 'region':
      return 'section[aria-label]:not([role]), section[aria-labelledby]:not([role])';
    case 'main':
      return 'main:not([role])';
    default:
      return `[data-never="${role}"]`;
  }
}

function matchesName(actual: string, wanted: string | RegExp) {
  return typeof wanted === 'string' ? actual === wanted : wanted.test(actual);
}

export function accessibleName(element: HTMLElement): string {
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) return labelledBy.split(/\s+/).map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ');
  const label = element.getAttribute('aria-label');
  if (label) return label;
  if (element.id) {
    const forLabel = document.querySelector(`label[for="${element.id}"]`);
    if (forLabel) return forLabel.textContent?.trim() ?? '';
  }
  return element.textContent?.trim().replace(/\s+/g, ' ') ?? '';
}
