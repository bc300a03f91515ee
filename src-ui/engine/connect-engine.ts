import { wrap, type Remote } from 'comlink';
import { WORKER_API_VERSION, type HandshakeResult, type WorkerApi } from '../../shared/worker-api';

export interface EngineConnection {
  readonly api: Remote<WorkerApi>;
  readonly handshake: HandshakeResult;
  readonly tabId: string;
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
 * Connects this tab to the shared engine. One SharedWorker serves every tab; where the
 * browser has none, a dedicated worker runs the same engine for this tab.
 */
export async function connectEngine(): Promise<EngineConnection> {
  const url = workerUrl();
  const endpoint =
    typeof SharedWorker === 'function'
      ? new SharedWorker(url, { type: 'module', name: 'tern-engine' }).port
      : new Worker(url, { type: 'module', name: 'tern-engine' });
  const api = wrap<WorkerApi>(endpoint);
  const tabId = randomTabId();
  const handshake = await api.session.handshake({ apiVersion: WORKER_API_VERSION, tabId });
  addEventListener('pagehide', () => void api.session.goodbye({ tabId }));
  return { api, handshake, tabId };
}
