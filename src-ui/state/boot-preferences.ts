/**
 * This browser's boot cache of the app-wide preferences. The engine's copy of the primary
 * account's preferences is the truth (engine-feeds/settings-feed.ts); this cache only lets
 * the first paint, the boot screen and the login screen use the last known theme, view and
 * language before the engine answers, so a dark-theme person never sees a white flash.
 */
import { LANGUAGE_CHOICES, type LanguageChoice, type ThemeChoice, type ViewMode } from '../../shared/preferences';
import { THEME_STORAGE_KEY } from '../theme/theme';
import { VIEW_STORAGE_KEY } from './view-mode';

export const LANGUAGE_STORAGE_KEY = 'tern.language';

/** localStorage when there is one and it may be used (private modes may throw). */
export function bootStorage(): Storage | undefined {
  try {
    return typeof window !== 'undefined' ? window.localStorage : undefined;
  } catch {
    return undefined;
  }
}

export function readBootLanguage(storage: Pick<Storage, 'getItem'> | undefined): LanguageChoice {
  try {
    const value = storage?.getItem(LANGUAGE_STORAGE_KEY);
    return (LANGUAGE_CHOICES as readonly string[]).includes(value ?? '') ? (value as LanguageChoice) : 'auto';
  } catch {
    return 'auto';
  }
}

export function writeBootCache(storage: Pick<Storage, 'setItem'> | undefined, values: { theme?: ThemeChoice; viewMode?: ViewMode; language?: LanguageChoice }): void {
  try {
    if (values.theme) storage?.setItem(THEME_STORAGE_KEY, values.theme);
    if (values.viewMode) storage?.setItem(VIEW_STORAGE_KEY, values.viewMode);
    if (values.language) storage?.setItem(LANGUAGE_STORAGE_KEY, values.language);
  } catch {
    // quota or disabled storage: the engine still has the choice
  }
}
