/**
 * The page's side of the service worker (service-worker.ts): registers it, says when a new
 * version has installed and waits ("A new version is ready — Reload", UpdateBanner.tsx),
 * and asks the browser to keep this site's storage (the engine's IndexedDB) when Tern is
 * installed. Loaded after the first screen (main.tsx), never part of the entry.
 */
type Listener = () => void;

let waiting: ServiceWorker | null = null;
const listeners = new Set<Listener>();

function setWaiting(worker: ServiceWorker) {
  waiting = worker;
  for (const listener of listeners) listener();
}

/** A new version waits for the page's Reload. */
export const updateWaiting = (): boolean => waiting !== null;

/** Called when a new version waits, or the install prompt comes or goes. */
export function subscribeToUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Lets the waiting version take over, then reloads the page on it (or just reloads without one). */
export function applyUpdate(): void {
  const worker = waiting;
  if (!worker || !('serviceWorker' in navigator)) return location.reload();
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  worker.postMessage('skip-waiting');
}

/**
 * Asks that the browser never evict this site's storage (the engine's mirror of the mail):
 * once Tern is installed, or opened as an installed app. The answer is the browser's (it
 * may say no without asking anyone); nothing depends on it.
 */
export async function requestPersistentStorage(): Promise<boolean> {
  try {
    return (await navigator.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}

/** Chromium's install prompt, held for the app page's Install button (it comes once per page load, when the browser decides). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ readonly outcome: 'accepted' | 'dismissed' }>;
}
let installPrompt: InstallPromptEvent | null = null;

/** The browser offers its install prompt now. */
export const installOffered = (): boolean => installPrompt !== null;

/**
 * Shows the browser's install prompt; true when the person installed. Storage is made
 * persistent then (the `appinstalled` event does it too, for an install from the browser's menu).
 */
export async function promptInstall(): Promise<boolean> {
  const offered = installPrompt;
  if (!offered) return false;
  installPrompt = null;
  for (const listener of listeners) listener();
  await offered.prompt();
  const { outcome } = await offered.userChoice;
  if (outcome === 'accepted') void requestPersistentStorage();
  return outcome === 'accepted';
}

/** Tern opened as an installed app (its own window, no browser bar). */
export const runsInstalled = (): boolean => typeof matchMedia === 'function' && (matchMedia('(display-mode: standalone)').matches || matchMedia('(display-mode: window-controls-overlay)').matches);

const UPDATE_CHECK_MS = 30 * 60 * 1000;

export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  window.addEventListener('appinstalled', () => void requestPersistentStorage());
  // Held rather than shown as the browser's bar: the app page offers it (settings/apps).
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installPrompt = event as InstallPromptEvent;
    for (const listener of listeners) listener();
  });
  if (runsInstalled()) void requestPersistentStorage();
  // updateViaCache 'none': the browser asks the gateway for /sw.js itself, never an HTTP cache.
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/', updateViaCache: 'none' });
  // A worker that installs while another controls this page is a new version: it waits. (The
  // first one takes the page at once, service-worker.ts, and needs no Reload.)
  const follow = (worker: ServiceWorker | null) => {
    if (!worker) return;
    const check = () => worker.state === 'installed' && navigator.serviceWorker.controller && setWaiting(worker);
    check();
    worker.addEventListener('statechange', check);
  };
  follow(registration.waiting);
  follow(registration.installing);
  registration.addEventListener('updatefound', () => follow(registration.installing));
  const update = () => void registration.update().catch(() => undefined);
  setInterval(update, UPDATE_CHECK_MS);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && update());
}
