/**
 * Shared `Intl.DateTimeFormat` instances. `Date#toLocaleDateString(locale, options)` builds
 * a new formatter on every call (resolving the locale, loading its patterns), which made
 * the date column the most expensive part of rendering a thread row (bench item 9's
 * profile); a formatter built once per locale and options gives the same strings (the
 * spec defines those methods as `new Intl.DateTimeFormat(locale, options).format(date)`)
 * for a fraction of the cost. (A formatter keeps the time zone it was built in; a zone
 * change while the tab is open shows after a reload, as in most mail apps.)
 */
const byOptions = new WeakMap<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();

/**
 * The formatter for a locale (undefined: the reader's) and an options object, built on
 * first use. Pass a constant options object: the cache is keyed by its identity.
 */
export function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let byLocale = byOptions.get(options);
  if (!byLocale) {
    byLocale = new Map();
    byOptions.set(options, byLocale);
  }
  const key = locale ?? '';
  let format = byLocale.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    byLocale.set(key, format);
  }
  return format;
}
