/**
 * What every engine feed of this folder shares: the engine, the jotai store the feed writes,
 * timers that end with the bridge, and whether the bridge has stopped (an answer arriving
 * after `stop` is dropped, never written).
 */
import type { createStore } from 'jotai';
import type { UiEngine } from '../engine-port';

export type Store = ReturnType<typeof createStore>;

export interface FeedContext {
  readonly engine: UiEngine;
  readonly store: Store;
  /** Runs `run` after `ms`, unless the bridge stops first. */
  later(ms: number, run: () => void): ReturnType<typeof setTimeout>;
  /** True once the bridge has stopped. */
  isStopped(): boolean;
}
