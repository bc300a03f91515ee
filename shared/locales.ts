/**
 * The languages the UI speaks, and which one a choice means in this browser. Its own module
 * (no zod): the boot shell and the message catalogue import it, and stay small (DESIGN §8).
 */

/** The languages the UI speaks completely. */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
/** `auto` follows the browser's language (navigator.languages), English when none fits. */
export const LANGUAGE_CHOICES = ['auto', ...LOCALES] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

/** The language the UI shows for a choice, given the browser's languages (navigator.languages). */
export function resolveLocale(choice: LanguageChoice, browserLanguages: readonly string[]): Locale {
  if (choice !== 'auto') return choice;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    if ((LOCALES as readonly string[]).includes(base ?? '')) return base as Locale;
  }
  return 'en';
}
