import { proxy, wrap, type Remote } from 'comlink';
import { registerErrorTransfer } from '../../shared/error-transfer';
import { WORKER_API_VERSION, type AccountsState, type HandshakeResult, type WorkerApi } from '../../shared/worker-api';
import { FIRST_WINDOW, firstScreenScope, requestEarlyList, type EarlyList } from './first-screen';
import { measureCallbacks, measuredEndpoint } from './rpc-stats';

/** What the tab asked the engine in the handshake's round trip, for the app to take over. */
export interface EngineStartup {
  /** `accounts.initialise()`, asked at once. */
  readonly accounts: Promise<AccountsState>;
  /** The list the address will show (first-screen.ts), when it could be told from the address. */
  readonly firstList: EarlyList | null;
}

export interface EngineConnection {
  readonly api: Remote<WorkerApi>;
  readonly handshake: HandshakeResult;
  readonly tabId: string;
  readonly startup: EngineStartup;
}

/** The worker bundle's hashed URL, written into the page by the build. */
function workerUrl(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="tern-worker"]');
  if (!meta?.content) throw new Error('The page does not name the engine bundle (meta tern-worker).');
  return meta.content;
}

function randomTabId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * `extendedLifetime` (Chromium) keeps the engine alive a little after its last tab goes,
 * so the reload of the only tab finds it running — databases open, search index built,
 * sync connected — instead of starting it again. Other browsers ignore the option.
 */
const SHARED_OPTIONS = { type: 'module', name: 'tern-engine', extendedLifetime: true } as WorkerOptions;

/**
 * Connects this tab to the shared engine. One SharedWorker serves every tab; where the
 * browser has none, a dedicated worker runs the same engine for this tab.
 *
 * Everything the first screen needs is asked before the handshake's answer, in one burst
 * of messages (the engine works on them concurrently): the handshake, the account list
 * and the list the address shows. The engine checks versions on the handshake; a tab of
 * another version sees the handshake's refusal and uses none of the rest.
 */
export function connectEngine(): Promise<EngineConnection> {
  started ??= open();
  return started;
}

/** One connection per tab: the boot module (engine/boot.ts) and the entry share it. */
let started: Promise<EngineConnection> | null = null;

function open(): Promise<EngineConnection> {
  try {
    registerErrorTransfer(); // before any answer can arrive: thrown TernErrors stay typed
    const url = workerUrl();
    const port =
      typeof SharedWorker === 'function' ? new SharedWorker(url, SHARED_OPTIONS).port : new Worker(url, { type: 'module', name: 'tern-engine' });
    measureCallbacks();
    const api = wrap<WorkerApi>(measuredEndpoint(port));
    const tabId = randomTabId();
    const handshake = api.session.handshake({ apiVersion: WORKER_API_VERSION, tabId });
    const accounts = api.accounts.initialise() as Promise<AccountsState>;
    accounts.catch(() => undefined); // the app reports it (and an old engine may refuse it)
    const scope = firstScreenScope(location);
    const firstList = scope
      ? requestEarlyList({
          scope,
          window: FIRST_WINDOW,
          watch: (onPatch) => api.mail.watchThreadList({ scope, window: FIRST_WINDOW }, proxy(onPatch)),
          unwatch: (subscriptionId) => void api.mail.unwatch({ subscriptionId }).catch(() => undefined),
        })
      : null;
    addEventListener('pagehide', () => void api.session.goodbye({ tabId }));
    return handshake.then((result) => {
      if (!result.ok) firstList?.drop();
      return { api, handshake: result, tabId, startup: { accounts, firstList } };
    });
  } catch (error) {
    return Promise.reject(error);
  }
}
