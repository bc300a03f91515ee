/**
 * The locale the UI speaks, for React: <LocaleProvider locale> above the app, useT() for
 * catalogue messages, useLocale() for Intl. Without a provider (or a locale) the browser's
 * languages decide, as the preference 'auto' does.
 */
import { createContext, Fragment, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { ERROR_CATALOGUE, isErrorName } from '../../shared/errors';
import { resolveLocale, type Locale } from '../../shared/locales';
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

/**
 * An error's description in the current locale (`errors.<Name>`). An error that carries words
 * of its own (the gateway's description naming the file, the operator, the server's reply) keeps
 * them: they say more than the catalogue's general sentence. Neither in the catalogue: its message.
 */
export function errorText(t: Translate, error: { readonly name: string; readonly message?: string }): string {
  if (!isErrorName(error.name)) return error.message ?? '';
  const own = error.message?.trim();
  return own && own !== ERROR_CATALOGUE[error.name].description ? own : t(`errors.${error.name}`);
}

/**
 * A catalogue message with elements in it (<kbd>e</kbd>, <strong>name</strong>): the message
 * keeps its placeholders ({key}) where each element goes, so a translation may move them.
 */
export function RichText({ id, values }: { id: MessageId; values: Readonly<Record<string, ReactNode>> }) {
  const t = useT();
  const nodes: ReactNode[] = [];
  const plain: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'number') plain[name] = value;
    else {
      plain[name] = `\uE000${nodes.length}\uE001`;
      nodes.push(value);
    }
  }
  const parts = t(id, plain).split(/\uE000(\d+)\uE001/);
  return <>{parts.map((part, index) => (index % 2 === 0 ? part : <Fragment key={index}>{nodes[Number(part)]}</Fragment>))}</>;
}
