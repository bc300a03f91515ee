/**
 * The boot shell's few sentences, from the catalogue's `shell` area alone: the shell is in the
 * page's entry (DESIGN §8, ≤ 90 KB), so it must not pull in every area and language.
 */
import { resolveLocale } from '../locales';
import { shell as de } from './de/shell';
import { shell as en } from './en/shell';
import { formatMessage, type MessageValues } from './message-format';

const SHELL = { en, de };

/** A `shell.<key>` message in the browser's language (the saved preference is not known before the app loads). */
export function shellText(key: keyof typeof en, values?: MessageValues, languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): string {
  const locale = resolveLocale('auto', languages);
  return formatMessage(locale, SHELL[locale][key], values);
}
