/**
 * Each account's settings as the engine pushes them (engine-feeds/settings-feed.ts), the
 * app-wide language choice, and the paywall on show. Read by components; written only by
 * the settings feed and the command functions.
 */
import { atom } from 'jotai';
import type { Feature } from '../../shared/plans';
import { resolveLocale, type LanguageChoice, type Locale } from '../../shared/preferences';
import type { AccountSettings } from '../../shared/worker-api';

/** accountId → settings; null until the engine's first answer (an older engine without settings stays null). */
export const accountSettingsAtom = atom<Readonly<Record<string, AccountSettings>> | null>(null);

/** The app's language choice: the primary account's, or this browser's boot cache before the engine answers. */
export const languageChoiceAtom = atom<LanguageChoice>('auto');

/** The browser's languages ('auto' follows them); set once at start, replaced in tests. */
export const browserLanguagesAtom = atom<readonly string[]>(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));

/** The language the UI shows. */
export const localeAtom = atom<Locale>((get) => resolveLocale(get(languageChoiceAtom), get(browserLanguagesAtom)));

/** A gated feature someone asked for without it in their plan: the paywall shows (null: none). */
export const paywallAtom = atom<{ readonly feature: Feature } | null>(null);
