/**
 * The whole surface the tabs see of the SharedWorker engine (design card; STYLE.md item 1).
 * Every tab talks to the engine through this contract only, over comlink.
 */
import type { ProxyMarked } from 'comlink';

/**
 * A service object reached through the remote by path (`api.session.handshake(...)`).
 * The mark makes comlink type its methods as remote calls rather than as a copied value.
 */
export type Service<T> = T & ProxyMarked;

/**
 * Bumped whenever this contract changes incompatibly. A tab built against another
 * version is told to reload instead of calling methods that no longer mean the same.
 */
export const WORKER_API_VERSION = 1;

export interface HandshakeParams {
  /** The WORKER_API_VERSION the tab was built with. */
  readonly apiVersion: number;
  /** A random id per tab, used to tell tabs apart in broadcasts and logs. */
  readonly tabId: string;
}

export type HandshakeResult =
  | {
      readonly ok: true;
      /** The app version the engine runs. */
      readonly engineVersion: string;
      /** Tabs connected to this engine, this one included. */
      readonly connectedTabs: number;
    }
  | {
      readonly ok: false;
      /** The tab must reload to pick up the engine's version. */
      readonly reason: 'version-mismatch';
      readonly workerApiVersion: number;
    };

/** Connection bookkeeping between a tab and the engine. */
export interface SessionService {
  /** First call of every tab: checks versions and registers the tab. */
  handshake(params: HandshakeParams): Promise<HandshakeResult>;
  /** Last call of a closing tab (best effort: a killed tab never sends it). */
  goodbye(params: { readonly tabId: string }): Promise<void>;
}

/** Everything the engine exposes, one service per domain. */
export interface WorkerApi {
  /** Tab registration and version handshake. */
  readonly session: Service<SessionService>;
}
