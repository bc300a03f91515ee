/**
 * The locale the UI speaks, for React: <LocaleProvider locale> above the app, useT() for
 * catalogue messages, useLocale() for Intl. Without a provider (or a locale) the browser's
 * languages decide, as the preference 'auto' does.
 */
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { isErrorName } from '../../shared/errors';
import { resolveLocale, type Locale } from '../../shared/preferences';
import { format, type MessageId, type MessageValues } from '../../shared/strings';

export type { MessageId } from '../../shared/strings';

/** The locale 'auto' resolves to in this browser. */
export function browserLocale(): Locale {
  return resolveLocale('auto', typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
}

const LocaleContext = createContext<Locale>(browserLocale());

/** Provides the locale to everything below; also sets <html lang> (screen readers, hyphenation, the spell checker). */
export function LocaleProvider({ locale, children }: { locale?: Locale; children: ReactNode }) {
  const chosen = locale ?? browserLocale();
  useEffect(() => {
    document.documentElement.lang = chosen;
  }, [chosen]);
  return <LocaleContext.Provider value={chosen}>{children}</LocaleContext.Provider>;
}

export function useLocale(): Locale {
  return useContext(LocaleContext);
}

/** Formats a catalogue message in the current locale. */
export type Translate = (id: MessageId, values?: MessageValues) => string;

export function useT(): Translate {
  const locale = useLocale();
  return useMemo(() => (id: MessageId, values?: MessageValues) => format(locale, id, values), [locale]);
}

/** An error's description in the current locale (`errors.<Name>`); one not in the catalogue keeps its own message. */
export function errorText(t: Translate, error: { readonly name: string; readonly message?: string }): string {
  return isErrorName(error.name) ? t(`errors.${error.name}`) : (error.message ?? '');
}
