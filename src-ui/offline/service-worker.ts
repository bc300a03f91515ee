/// <reference lib="webworker" />
/**
 * The service worker (issue 20 point 2): the app shell opens when the gateway is out of
 * reach. Built on its own by build.mjs (never part of the entry bundle) and served at
 * /sw.js, with the build's file list prepended as `self.__TERN_PRECACHE__`.
 *
 * - install: every file of this build goes into one cache named for the build's version.
 *   A new version installs beside the old and waits: the page offers "Reload" (the
 *   `skip-waiting` message), so a tab never runs old chunks with new ones.
 * - a page (navigation): the network first; when it cannot answer (offline, the gateway
 *   down or a proxy's 502/503/504) the shell of this version from the cache.
 * - a file of this build: from the cache (the names are content-hashed), else the network.
 * - /api and anything else: not touched. Mail lives in the engine's IndexedDB, never here.
 */
export interface Precache {
  /** The build's version: a hash of its files. */
  readonly version: string;
  /** The URLs to keep, the shell ('/') first. */
  readonly urls: readonly string[];
}

declare const self: ServiceWorkerGlobalScope & { __TERN_PRECACHE__: Precache };

const CACHE_PREFIX = 'tern-shell-';
const SHELL_URL = '/';
/** Answers a proxy gives when the gateway behind it is down: the cached shell serves better. */
const GATEWAY_DOWN = new Set([502, 503, 504]);
/** A build file whose name carries its content's hash (build.mjs; the gateway serves them immutable). */
const CONTENT_HASHED = /-[A-Z0-9]{8}\.(js|css)$/;

const precache = self.__TERN_PRECACHE__;
const cacheName = CACHE_PREFIX + precache.version;
const precached = new Set(precache.urls);

/**
 * This version's cache, opened once per run of the worker: a warm start asks for ~60 files
 * at once, and opening the cache for each of them queued 60 more CacheStorage round trips.
 */
let opened: Promise<Cache> | null = null;
const shellCache = () => (opened ??= caches.open(cacheName));

/** Chromium 123+'s static routes (InstallEvent.addRoutes), not in TypeScript's lib yet. */
type RoutingInstallEvent = ExtendableEvent & { addRoutes?: (rules: { condition: { urlPattern: string }; source: 'network' | 'race-network-and-fetch-handler' }[]) => Promise<void> };

self.addEventListener('install', (event) => {
  // The content-hashed files may come from the browser's HTTP cache (immutable: the same name
  // is the same bytes): the page that registers this worker has just loaded ~60 of them, and
  // the install (~130 files, 1.7 MB) lands while the person reads mail. The rest (the shell
  // '/', icons, the manifest) straight from the gateway (`reload`), never an older copy.
  const fresh = (url: string) => new Request(url, { cache: CONTENT_HASHED.test(url) ? 'default' : 'reload' });
  event.waitUntil(shellCache().then((cache) => cache.addAll(precache.urls.map(fresh))));
  // The build's files: the browser's HTTP cache (immutable, content-hashed) races this
  // worker's cache. A warm start asks for ~60 of them; answered by the worker alone, each
  // waited for it to start and read CacheStorage (the bench's warm start: chunks took
  // ~250 ms, from the HTTP cache ~10). Offline the network loses and the cache answers. The
  // fetch handler below still serves browsers without routes.
  // The gateway's API straight to the network: the handler never answers it, yet with no
  // route every call of a controlled page or engine first woke this worker to hear "not mine"
  // (after 30 s idle it is stopped, and starting it again costs tens of ms, more under load).
  const routes = (event as RoutingInstallEvent).addRoutes?.([
    { condition: { urlPattern: '/api/*' }, source: 'network' },
    { condition: { urlPattern: '/build/*' }, source: 'race-network-and-fetch-handler' },
  ]);
  if (routes) event.waitUntil(routes.catch(() => undefined));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== cacheName).map((name) => caches.delete(name)));
      // The page's request leaves while this worker boots, not after (a stopped worker takes tens of ms to start).
      await self.registration.navigationPreload?.enable().catch(() => undefined);
      // The first install takes the open tabs at once, so they open offline from now on (they run this very build).
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') void self.skipWaiting();
  // The page asks which build this worker holds (sw-registration.ts).
  if (event.data === 'version') event.source?.postMessage({ kind: 'tern-sw-version', version: precache.version });
});

async function shellFromCache(): Promise<Response | undefined> {
  return (await shellCache()).match(SHELL_URL);
}

async function page(request: Request, preloaded: Promise<Response | undefined>): Promise<Response> {
  try {
    const response = (await preloaded) ?? (await fetch(request));
    if (!GATEWAY_DOWN.has(response.status)) return response;
    return (await shellFromCache()) ?? response;
  } catch (error) {
    const shell = await shellFromCache();
    if (shell) return shell;
    throw error;
  }
}

/**
 * Looked up by its path, the key it was stored under: a match that ignores the query string
 * compares every entry of the cache (Chromium walks them all), once for each of ~60 files.
 */
async function buildFile(request: Request, path: string): Promise<Response> {
  return (await (await shellCache()).match(path)) ?? fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') return event.respondWith(page(request, event.preloadResponse as Promise<Response | undefined>));
  if (precached.has(url.pathname)) return event.respondWith(buildFile(request, url.pathname));
});
