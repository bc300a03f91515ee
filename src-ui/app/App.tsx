/**
 * The app behind the boot screen, loaded lazily: state, router and screens. Built once
 * per tab, outside React, so StrictMode's double effects never subscribe twice.
 */
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { Provider as JotaiProvider } from 'jotai';
import { ActionsProvider } from '../state/actions-context';
import { createAppState, type AppState } from '../state/app-state';
import { engineFromWorker, type UiEngine } from '../state/engine-port';
import type { PreferenceEnvironment } from '../state/preferences';
import type { EngineConnection } from '../engine/connect-engine';
import { createAppRouter, type AppRouter } from './routes';

export interface MailApp {
  /** Renders the app; mount it once. */
  readonly MailApp: () => React.JSX.Element;
  readonly state: AppState;
  readonly router: AppRouter;
}

export function createMailApp(engine: UiEngine, options: { history?: RouterHistory; preferences?: PreferenceEnvironment } = {}): MailApp {
  const state = createAppState(engine, options.preferences ? { preferences: options.preferences } : {});
  const router = createAppRouter(options.history);
  void state.start();
  function MailApp() {
    return (
      <JotaiProvider store={state.store}>
        <ActionsProvider actions={state.actions}>
          <RouterProvider router={router} />
        </ActionsProvider>
      </JotaiProvider>
    );
  }
  return { MailApp, state, router };
}

/** The app on the shared engine this tab connected to. */
export function createMailAppForWorker(connection: EngineConnection): MailApp {
  const version = connection.handshake.ok ? connection.handshake.engineVersion : '';
  return createMailApp(engineFromWorker(connection.api, version, connection.startup));
}
