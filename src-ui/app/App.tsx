/**
 * The app behind the boot screen, loaded lazily: state, router and screens. Built once
 * per tab, outside React, so StrictMode's double effects never subscribe twice.
 */
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { Provider as JotaiProvider, useAtomValue } from 'jotai';
import type { Locale } from '../../shared/locales';
import { LocaleProvider } from '../kit/i18n';
import { ActionsProvider } from '../state/actions-context';
import { createAppState, type AppState } from '../state/app-state';
import { engineFromWorker, type UiEngine } from '../state/engine-port';
import type { PreferenceEnvironment } from '../state/preferences';
import type { EngineConnection } from '../engine/connect-engine';
import { loginNeeded, loginSearchFrom } from '../engine/first-screen';
import { accountsAtom } from '../state/atoms';
import { localeAtom } from '../state/settings-atoms';
import { createAppRouter, type AppRouter } from './routes';

export interface MailApp {
  /** Renders the app; mount it once. */
  readonly MailApp: () => React.JSX.Element;
  readonly state: AppState;
  readonly router: AppRouter;
  /**
   * Loads the first screen's routes before the first render (so it does not suspend), and
   * decides which screen that is: with nobody logged in, the login screen, whatever the
   * address — never a mailbox painted on the way there.
   */
  loadFirstScreen(): Promise<void>;
}

export function createMailApp(
  engine: UiEngine,
  /** `locale`: the language to show; without it the browser's languages decide (the preference 'auto'). */
  options: { history?: RouterHistory; preferences?: PreferenceEnvironment; locale?: Locale } = {},
): MailApp {
  const state = createAppState(engine, options.preferences ? { preferences: options.preferences } : {});
  const router = createAppRouter(options.history);
  // Resolves once the account list is known: the one asked in the handshake's round trip
  // (engine/connect-engine.ts), so the first screen's decision costs no round trip of its own.
  const started = state.start().catch(() => undefined);
  async function loadFirstScreen() {
    // The address's screens load meanwhile: a warm start waits for the slower of the two only.
    const loading = router.load().catch(() => undefined);
    await started;
    const accounts = state.store.get(accountsAtom) ?? [];
    const { location } = router.state;
    if (loginNeeded(accounts.length, location.pathname)) await router.navigate({ to: '/login', search: loginSearchFrom(location), replace: true }).catch(() => undefined);
    else await loading;
  }
  function MailApp() {
    return (
      <JotaiProvider store={state.store}>
        <AppLocale fixed={options.locale}>
          <ActionsProvider actions={state.actions}>
            <RouterProvider router={router} />
          </ActionsProvider>
        </AppLocale>
      </JotaiProvider>
    );
  }
  return { MailApp, state, router, loadFirstScreen };
}

/** The language of the primary account's preferences (its boot cache first); `fixed` (tests) wins. */
function AppLocale({ fixed, children }: { fixed: Locale | undefined; children: React.ReactNode }) {
  const chosen = useAtomValue(localeAtom);
  return <LocaleProvider locale={fixed ?? chosen}>{children}</LocaleProvider>;
}

/** The app on the shared engine this tab connected to. */
export function createMailAppForWorker(connection: EngineConnection): MailApp {
  const version = connection.handshake.ok ? connection.handshake.engineVersion : '';
  return createMailApp(engineFromWorker(connection.api, version, connection.startup));
}
