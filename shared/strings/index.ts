/**
 * The message catalogue: every user-visible string of the UI and of the engine's messages,
 * by id `<area>.<key>`, in each locale of shared/preferences.ts (LOCALES). English lives in
 * en/<area>.ts, German in de/<area>.ts typed against it; messages are ICU (message-format.ts).
 * Dates and numbers are not here: Intl formats them in the same locale.
 */
import type { Locale } from '../preferences';
import { de } from './de';
import { en } from './en';
import { formatMessage, type MessageValues } from './message-format';

export type { MessageValue, MessageValues } from './message-format';

type Areas = typeof en;
/** Every message id of the catalogue, e.g. 'login.signIn'. */
export type MessageId = { [Area in keyof Areas & string]: `${Area}.${keyof Areas[Area] & string}` }[keyof Areas & string];

const CATALOGUES: Readonly<Record<Locale, Readonly<Record<string, Readonly<Record<string, string>>>>>> = { en, de };

/** The message's source text in a locale (English when a locale lacks it, which the types forbid). */
export function messageSource(locale: Locale, id: MessageId): string {
  const dot = id.indexOf('.');
  const area = id.slice(0, dot);
  const key = id.slice(dot + 1);
  return CATALOGUES[locale][area]?.[key] ?? CATALOGUES.en[area]?.[key] ?? id;
}

/** One message formatted in a locale: for code outside React (React uses useT() of src-ui/kit/i18n.tsx). */
export function format(locale: Locale, id: MessageId, values?: MessageValues): string {
  return formatMessage(locale, messageSource(locale, id), values);
}

/** Every id of the catalogue (for the tests that check each message parses in each locale). */
export function allMessageIds(): MessageId[] {
  return Object.entries(en).flatMap(([area, messages]) => Object.keys(messages).map((key) => `${area}.${key}` as MessageId));
}

/** A catalogue message chosen but not yet formatted (code outside React chooses, the UI formats in its locale). */
export interface Message {
  readonly id: MessageId;
  readonly values?: MessageValues;
}

/**
 * Text that code outside React hands to the UI: a catalogue message, several said one after
 * another (joined by a space), or a plain string that is not ours to translate (a server's
 * own words, a name).
 */
export type Phrase = string | Message | readonly Phrase[];

export function formatPhrase(locale: Locale, phrase: Phrase): string {
  if (typeof phrase === 'string') return phrase;
  if (Array.isArray(phrase)) return (phrase as readonly Phrase[]).map((part) => formatPhrase(locale, part)).filter(Boolean).join(' ');
  const message = phrase as Message;
  return format(locale, message.id, message.values);
}
