import { APP_VERSION } from '../shared/app-info';
import {
  WORKER_API_VERSION,
  type HandshakeParams,
  type HandshakeResult,
  type SessionService,
} from '../shared/worker-api';

/**
 * How long the engine outlives its last tab. Chromium keeps a SharedWorker started with
 * `extendedLifetime` alive after its last tab goes (src-ui/engine/connect-engine.ts), so a
 * reload of the only tab finds it running; this bounds that to a grace period in which a
 * reload reconnects and a just-sent message leaves the outbox, then the engine ends itself.
 */
export const IDLE_CLOSE_MS = 30_000;

export interface SessionServiceDeps {
  readonly apiVersion?: number;
  /** Called once no tab has been connected for `idleMs` (the worker closes itself). */
  readonly onIdle?: () => void;
  readonly idleMs?: number;
  readonly setTimer?: (run: () => void, ms: number) => unknown;
  readonly clearTimer?: (timer: unknown) => void;
}

/** Tracks the tabs connected to this engine and refuses tabs built for another contract. */
export function createSessionService(deps: SessionServiceDeps = {}): SessionService {
  const apiVersion = deps.apiVersion ?? WORKER_API_VERSION;
  const setTimer = deps.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const tabs = new Set<string>();
  let idle: unknown = null;
  const stopIdle = () => {
    if (idle !== null) clearTimer(idle);
    idle = null;
  };
  return {
    async handshake({ apiVersion: tabVersion, tabId }: HandshakeParams): Promise<HandshakeResult> {
      if (tabVersion !== apiVersion) {
        return { ok: false, reason: 'version-mismatch', workerApiVersion: apiVersion };
      }
      stopIdle();
      tabs.add(tabId);
      return { ok: true, engineVersion: APP_VERSION, connectedTabs: tabs.size };
    },
    async goodbye({ tabId }) {
      tabs.delete(tabId);
      if (tabs.size > 0 || !deps.onIdle) return;
      stopIdle();
      idle = setTimer(() => {
        idle = null;
        if (tabs.size === 0) deps.onIdle?.();
      }, deps.idleMs ?? IDLE_CLOSE_MS);
    },
  };
}
