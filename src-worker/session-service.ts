import { APP_VERSION } from '../shared/app-info';
import {
  WORKER_API_VERSION,
  type HandshakeParams,
  type HandshakeResult,
  type SessionService,
} from '../shared/worker-api';

/** Tracks the tabs connected to this engine and refuses tabs built for another contract. */
export function createSessionService(deps: { apiVersion?: number } = {}): SessionService {
  const apiVersion = deps.apiVersion ?? WORKER_API_VERSION;
  const tabs = new Set<string>();
  return {
    async handshake({ apiVersion: tabVersion, tabId }: HandshakeParams): Promise<HandshakeResult> {
      if (tabVersion !== apiVersion) {
        return { ok: false, reason: 'version-mismatch', workerApiVersion: apiVersion };
      }
      tabs.add(tabId);
      return { ok: true, engineVersion: APP_VERSION, connectedTabs: tabs.size };
    },
    async goodbye({ tabId }) {
      tabs.delete(tabId);
    },
  };
}
