/**
 * Builds a tab's state once: the jotai store, the bridge that feeds it from the engine,
 * the preferences, and the command functions components call.
 */
import { createStore } from 'jotai';
import { engineVersionAtom } from './atoms';
import type { UiEngine } from './engine-port';
import { createMailActions, type MailActions } from './mail-actions';
import { createPreferences, type PreferenceEnvironment } from './preferences';
import { createWorkerBridge } from './engine-feeds';

export interface AppState {
  readonly store: ReturnType<typeof createStore>;
  readonly actions: MailActions;
  /** Loads accounts and subscribes to pushes. */
  start(): Promise<void>;
  stop(): void;
}

export function createAppState(engine: UiEngine, options: { preferences?: PreferenceEnvironment } = {}): AppState {
  const store = createStore();
  store.set(engineVersionAtom, engine.version);
  const bridge = createWorkerBridge({ engine, store });
  const preferences = createPreferences(store, options.preferences);
  const actions = createMailActions({ engine, store, bridge, preferences });
  return {
    store,
    actions,
    start: () => bridge.start(),
    stop() {
      bridge.stop();
      preferences.dispose();
    },
  };
}
