// @vitest-environment happy-dom
/**
 * A tab that outlives a deploy: the chunk of a screen it has not loaded yet is gone (404).
 * The screen says the app was updated and offers a reload, instead of the router's
 * "Something went wrong!" or a reload nobody asked for.
 */
import { createMemoryHistory, createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, lazy, Suspense } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ERROR_CATALOGUE } from '../../../shared/errors';
import { AppUpdatedError, importChunk, isChunkLoadError } from '../../../src-ui/app/chunk-errors';
import { PartBoundary, RouteError } from '../../../src-ui/app/RouteError';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const CHROMIUM_404 = () => new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:8080/build/chunks/LoginScreen-DRMAP35P.js');

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
  sessionStorage.clear();
  vi.restoreAllMocks();
});

/** A router whose /later screen loads lazily with `importer`, shown inside a layout that must stay. */
async function renderAt(path: string, importer: () => Promise<{ Later: () => React.JSX.Element }>) {
  const rootRoute = createRootRoute({
    component: () => (
      <div>
        <nav aria-label="Mailboxes">sidebar</nav>
        <Outlet />
      </div>
    ),
  });
  const home = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => <p>home</p> });
  const later = createRoute({ getParentRoute: () => rootRoute, path: 'later', component: lazyRouteComponent(importer, 'Later') });
  const router = createRouter({ routeTree: rootRoute.addChildren([home, later]), history: createMemoryHistory({ initialEntries: [path] }), defaultErrorComponent: RouteError });
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    await router.load();
    root!.render(<RouterProvider router={router} />);
  });
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  return container;
}

describe('a screen whose chunk is gone after a deploy', () => {
  test('the browsers’ wordings of a failed dynamic import are recognised, other errors are not', () => {
    expect(isChunkLoadError(CHROMIUM_404())).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new AppUpdatedError())).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  test('says the app was updated, in the catalogue’s words, with a focused Reload button, inside the layout', async () => {
    const view = await renderAt('/later', importChunk(() => Promise.reject(CHROMIUM_404())));
    expect(view.querySelector('[role="alert"]')?.textContent).toBe(ERROR_CATALOGUE.AppUpdated.description);
    expect(ERROR_CATALOGUE.AppUpdated.description).toBe('Tern Mail has been updated. Reload to continue.');
    const button = view.querySelector('button');
    expect(button?.textContent).toBe('Reload');
    expect(document.activeElement).toBe(button);
    expect(view.querySelector('nav[aria-label="Mailboxes"]')).not.toBeNull();
    expect(view.textContent).not.toContain('Something went wrong');
    // The router's own "reload once on a missing module" did not fire: the person chooses when.
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith('tanstack_router_reload'))).toEqual([]);
  });

  test('any other failure of a screen says it could not be shown and offers to try again', async () => {
    const view = await renderAt('/later', importChunk(() => Promise.reject(new Error('boom'))));
    expect(view.querySelector('[role="alert"]')?.textContent).toContain('This screen could not be shown.');
    expect([...view.querySelectorAll('button')].map((button) => button.textContent)).toEqual(['Try again', 'Reload']);
    expect(view.textContent).not.toContain('has been updated');
  });
});

describe('a lazily loaded part whose chunk is gone (the conversation view)', () => {
  test('fails inside its own area: the rest of the screen and the focus stay; another key tries again', async () => {
    const Conversation = lazy(() => Promise.reject(CHROMIUM_404()));
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    const list = () => document.getElementById('list') as HTMLButtonElement;
    const view = (key: string, broken: boolean) => (
      <div>
        <button id="list" type="button">
          list
        </button>
        <section aria-label="Conversation">
          <PartBoundary resetKey={key}>
            <Suspense fallback={<p>loading</p>}>{broken ? <Conversation /> : <p>conversation {key}</p>}</Suspense>
          </PartBoundary>
        </section>
      </div>
    );
    await act(async () => root!.render(view('t1', false)));
    list().focus();
    await act(async () => root!.render(view('t2', true)));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    const pane = container.querySelector('section') as HTMLElement;
    expect(pane.querySelector('[role="alert"]')?.textContent).toBe(ERROR_CATALOGUE.AppUpdated.description);
    expect(pane.querySelector('button')?.textContent).toBe('Reload');
    expect(document.activeElement).toBe(list());
    // Another thread whose view loads: the part is tried again.
    await act(async () => root!.render(view('t3', false)));
    expect(pane.textContent).toBe('conversation t3');
  });
});
