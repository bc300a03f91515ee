/**
 * The user's display preferences (theme, view): read at start, written through to
 * localStorage, and kept in step with other tabs (storage events) and with the system's
 * colour scheme. These are UI preferences, not mail data, so the tab keeps them itself.
 */
import type { createStore } from 'jotai';
import { parseThemeChoice, readThemeChoice, THEME_STORAGE_KEY, type ThemeChoice } from '../theme/theme';
import { parseViewMode, readViewMode, VIEW_STORAGE_KEY, type ViewMode } from '../settings/view-mode';
import { systemDarkAtom, themeChoiceAtom, viewModeAtom } from './atoms';

type Store = ReturnType<typeof createStore>;

export interface PreferenceEnvironment {
  readonly storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /** Where `storage` events arrive (the window). */
  readonly events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  readonly darkQuery?: Pick<MediaQueryList, 'matches' | 'addEventListener' | 'removeEventListener'>;
}

function defaultEnvironment(): PreferenceEnvironment {
  const hasWindow = typeof window !== 'undefined';
  let storage: Storage | undefined;
  try {
    storage = hasWindow ? window.localStorage : undefined;
  } catch {
    storage = undefined; // storage disabled: preferences last for this tab only
  }
  return {
    ...(storage ? { storage } : {}),
    ...(hasWindow ? { events: window } : {}),
    ...(hasWindow && typeof window.matchMedia === 'function' ? { darkQuery: window.matchMedia('(prefers-color-scheme: dark)') } : {}),
  };
}

export interface Preferences {
  setTheme(choice: ThemeChoice): void;
  setViewMode(mode: ViewMode): void;
  /** Stops following other tabs and the system. */
  dispose(): void;
}

export function createPreferences(store: Store, environment: PreferenceEnvironment = defaultEnvironment()): Preferences {
  const { storage, events, darkQuery } = environment;
  store.set(themeChoiceAtom, readThemeChoice(storage));
  store.set(viewModeAtom, readViewMode(storage));
  store.set(systemDarkAtom, darkQuery?.matches ?? false);

  const write = (key: string, value: string) => {
    try {
      storage?.setItem(key, value);
    } catch {
      // quota or disabled storage: the choice still holds in this tab
    }
  };
  const onStorage = (event: Event) => {
    const { key, newValue } = event as StorageEvent;
    if (key === THEME_STORAGE_KEY) store.set(themeChoiceAtom, parseThemeChoice(newValue));
    if (key === VIEW_STORAGE_KEY) store.set(viewModeAtom, parseViewMode(newValue));
  };
  const onScheme = (event: Event) => store.set(systemDarkAtom, (event as MediaQueryListEvent).matches);
  events?.addEventListener('storage', onStorage);
  darkQuery?.addEventListener('change', onScheme);

  return {
    setTheme(choice) {
      store.set(themeChoiceAtom, choice);
      write(THEME_STORAGE_KEY, choice);
    },
    setViewMode(mode) {
      store.set(viewModeAtom, mode);
      write(VIEW_STORAGE_KEY, mode);
    },
    dispose() {
      events?.removeEventListener('storage', onStorage);
      darkQuery?.removeEventListener('change', onScheme);
    },
  };
}
