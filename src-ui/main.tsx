/**
 * The entry: React, the boot screen and the engine handshake, nothing else (DESIGN §8:
 * ≤ 90 KB gzipped). The app itself (router, state, screens) loads as a chunk while the
 * engine starts, and takes over once both are ready.
 *
 * Start-up order (DESIGN §8, warm start ≤ 250 ms): the engine connection and its first
 * questions go out before React renders anything (engine/connect-engine.ts); the app
 * chunk and the screens of the address download meanwhile (the page preloads them); the
 * app renders only once its routes are loaded, so nothing suspends on the way. (A
 * Suspense fallback that resolves is revealed no sooner than 300 ms after it was shown,
 * React's throttle: the first screen would wait for it.) The boot screen itself shows
 * only when the app is not there within SPLASH_DELAY_MS: on a normal start it would cost
 * a render and a paint of its own and flash for a frame or two.
 */
import { proxy } from 'comlink';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { brand } from './brand';
import { connectEngine, type EngineConnection } from './engine/connect-engine';
import { Shell, type EngineState } from './shell/Shell';
import { applyTheme, readThemeChoice, resolveTheme, systemPrefersDark } from './theme/theme';
import './styles.css';

function storedPreferences(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

const connecting: Promise<EngineConnection> = connectEngine();

// Before the first paint: brand colours and the stored theme (no white flash in dark mode).
document.documentElement.style.setProperty('--brand-accent', brand.accent);
document.documentElement.style.setProperty('--brand-on-accent', brand.onAccent);
applyTheme(document.documentElement, resolveTheme(readThemeChoice(storedPreferences()), systemPrefersDark()));

// The app chunk downloads now, in parallel with the engine's start.
const appModule = import('./app/App');
appModule.catch(() => undefined); // reported by Boot

/** The app, built once per tab outside React (StrictMode runs effects twice), with the routes of the address loaded. */
const mailApp: Promise<(() => React.JSX.Element) | null> = Promise.all([appModule, connecting]).then(async ([{ createMailAppForWorker }, connection]) => {
  if (!connection.handshake.ok) return null; // Shell asks for a reload
  const app = createMailAppForWorker(connection);
  // The matched routes' lazy screens, so the first render does not suspend; the login
  // screen's instead when the account list (asked with the handshake) is empty.
  await app.loadFirstScreen();
  return app.MailApp;
});

/**
 * The boot screen shows only when the app takes longer than this: a start that paints the
 * mail first needs none. Well above a slow laptop's start (≈ 0.3-0.6 s at 4× CPU), so its
 * own render and paint do not land just before the app's (150 ms could, at 4×).
 */
const SPLASH_DELAY_MS = 800;
const FAVICON_DELAY_MS = 1000;
/** The service worker registers when the syncs caught up, or at the latest this long after the first screen (never while offline). */
const OFFLINE_LATEST_MS = 60_000;

/**
 * The favicon is the brand's SVG: decoding it builds a whole SVG document on the main
 * thread (≈ 6 ms, 24 ms at 4× CPU in a trace), which landed in the middle of the first
 * screen. The page starts with an empty icon (public/index.html); this sets the brand's
 * once the first screen had its chance.
 */
function showFavicon() {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]') ?? document.head.appendChild(Object.assign(document.createElement('link'), { rel: 'icon' }));
  link.href = `data:image/svg+xml,${encodeURIComponent(brand.logoSvg)}`;
}

/**
 * The service worker (the shell opens offline; updates wait for Reload): its code loads after
 * the first screen, outside the entry, and it registers once the accounts' syncs have caught
 * up — its install downloads the whole build, which must not compete with a first sync — and
 * the gateway is in reach (offline/syncs-settled.ts).
 */
function registerOffline() {
  Promise.all([import('./offline/sw-registration'), import('./offline/syncs-settled'), connecting])
    .then(async ([registration, { syncsSettled }, connection]) => {
      if (!connection.handshake.ok) return;
      const mail = connection.api.mail;
      // A mailbox that never stops changing still gets its offline shell, a minute later (with the gateway in reach).
      await syncsSettled({ watchSync: (onStatus) => mail.watchSync(proxy(onStatus)), unwatchSync: (params) => mail.unwatchSync(params) }, OFFLINE_LATEST_MS);
      await registration.registerServiceWorker();
    })
    .catch(() => undefined);
}

function Boot() {
  const [engine, setEngine] = useState<EngineState>({ kind: 'connecting' });
  const [splash, setSplash] = useState(false);
  const [App, setApp] = useState<{ readonly component: () => React.JSX.Element } | null>(null);
  useEffect(() => {
    const failed = (error: unknown) => setEngine({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    connecting.then((connection) => setEngine({ kind: 'connected', handshake: connection.handshake }), failed);
    mailApp.then((component) => component && setApp({ component }), failed);
    const timers = [setTimeout(() => setSplash(true), SPLASH_DELAY_MS), setTimeout(showFavicon, FAVICON_DELAY_MS), setTimeout(registerOffline, FAVICON_DELAY_MS)];
    return () => timers.forEach(clearTimeout);
  }, []);
  if (App) return <App.component />;
  const waiting = engine.kind === 'connecting' || (engine.kind === 'connected' && engine.handshake.ok);
  if (waiting && !splash) return null;
  return <Shell brand={brand} engine={engine} />;
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <Boot />
  </StrictMode>,
);
