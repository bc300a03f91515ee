/**
 * Builds a tab's state once: the jotai store, the bridge that feeds it from the engine,
 * the preferences, and the command functions components call.
 */
import { createStore } from 'jotai';
import { TernError } from '../../shared/errors';
import type { PreferencePatch } from '../../shared/preferences';
import { engineVersionAtom } from './atoms';
import type { UiEngine } from './engine-port';
import { createMailActions, type MailActions } from './mail-actions';
import { createPreferences, type PreferenceEnvironment } from './preferences';
import { createWorkerBridge } from './engine-feeds';
import { bootStorage } from './boot-preferences';
import { roamingPreferences } from './roaming-preferences';

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
  // The boot cache is the preference environment's storage (tests pass their own), else localStorage.
  const storage = options.preferences ? options.preferences.storage : bootStorage();
  const bridge = createWorkerBridge({ engine, store, ...(storage ? { bootStorage: storage } : {}) });
  const local = createPreferences(store, options.preferences);
  const updatePreferences = async (accountId: string, values: PreferencePatch) => {
    if (!engine.settings) return;
    try {
      await engine.settings.update({ accountId, values });
    } catch (error) {
      throw TernError.from(error);
    }
  };
  const preferences = roamingPreferences({ local, store, storage, update: updatePreferences });
  const actions = createMailActions({ engine, store, bridge, preferences, updatePreferences });
  return {
    store,
    actions,
    start: () => bridge.start(),
    stop() {
      bridge.stop();
      local.dispose();
    },
  };
}
