/**
 * The user's display preferences (theme, view): read at start, written through to
 * localStorage, and kept in step with other tabs (storage events) and with the system's
 * colour scheme. These are UI preferences, not mail data, so the tab keeps them itself.
 */
import type { createStore } from 'jotai';
import { parseThemeChoice, readThemeChoice, THEME_STORAGE_KEY, type ThemeChoice } from '../theme/theme';
import { parseViewMode, readViewMode, VIEW_STORAGE_KEY, type ViewMode } from './view-mode';
import { LIST_WIDTH_STORAGE_KEY, parseListWidth, readListWidth } from './pane-width';
import { listWidthAtom, systemDarkAtom, themeChoiceAtom, trustedSendersAtom, viewModeAtom } from './atoms';

/** localStorage key of the senders whose remote images always show. */
export const TRUSTED_SENDERS_KEY = 'tern.trustedSenders';

function parseTrustedSenders(value: string | null | undefined): readonly string[] {
  try {
    const parsed: unknown = JSON.parse(value ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string' && item.length <= 320).slice(0, 5000) : [];
  } catch {
    return [];
  }
}

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
  /** The thread list's width beside the reading pane (the divider), remembered by this browser. */
  setListWidth(width: number): void;
  /** Always shows remote images from this sender. */
  trustSender(email: string): void;
  /** Stops always showing remote images from this sender. */
  distrustSender(email: string): void;
  /** Stops following other tabs and the system. */
  dispose(): void;
}

export function createPreferences(store: Store, environment: PreferenceEnvironment = defaultEnvironment()): Preferences {
  const { storage, events, darkQuery } = environment;
  store.set(themeChoiceAtom, readThemeChoice(storage));
  store.set(viewModeAtom, readViewMode(storage));
  store.set(listWidthAtom, readListWidth(storage));
  store.set(systemDarkAtom, darkQuery?.matches ?? false);
  try {
    store.set(trustedSendersAtom, parseTrustedSenders(storage?.getItem(TRUSTED_SENDERS_KEY)));
  } catch {
    // unreadable storage: nobody is trusted yet
  }

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
    if (key === LIST_WIDTH_STORAGE_KEY) store.set(listWidthAtom, parseListWidth(newValue));
    if (key === TRUSTED_SENDERS_KEY) store.set(trustedSendersAtom, parseTrustedSenders(newValue));
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
    setListWidth(width) {
      const rounded = Math.round(width);
      store.set(listWidthAtom, rounded);
      write(LIST_WIDTH_STORAGE_KEY, String(rounded));
    },
    trustSender(email) {
      const address = email.trim().toLowerCase();
      const current = store.get(trustedSendersAtom);
      if (!address || current.includes(address)) return;
      const next = [...current, address];
      store.set(trustedSendersAtom, next);
      write(TRUSTED_SENDERS_KEY, JSON.stringify(next));
    },
    distrustSender(email) {
      const address = email.trim().toLowerCase();
      const current = store.get(trustedSendersAtom);
      if (!current.includes(address)) return;
      const next = current.filter((item) => item !== address);
      store.set(trustedSendersAtom, next);
      write(TRUSTED_SENDERS_KEY, JSON.stringify(next));
    },
    dispose() {
      events?.removeEventListener('storage', onStorage);
      darkQuery?.removeEventListener('change', onScheme);
    },
  };
}
