/**
 * Dates as the UI shows them (the thread list's time column, a message header's date, the
 * tooltips' full dates), all through shared `Intl.DateTimeFormat` instances.
 *
 * Why shared: `Date#toLocaleDateString(locale, options)` builds
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

// ── The thread list's time column ─────────────────────────────────────────────
const LIST_TIME_OPTIONS: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const THIS_YEAR_OPTIONS: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' };
const OLDER_OPTIONS: Intl.DateTimeFormatOptions = { year: '2-digit', month: 'numeric', day: 'numeric' };
const LIST_FULL_OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** A day's date column ("Mar 4", "3/4/24") by locale, day and whether it is this year; rows of one day share it. */
const dayLabels = new Map<string, string>();
const MAX_DAY_LABELS = 5_000;

/** Today: "14:05"; this year: "Mar 4"; older: "3/4/24" (in the reader's locale). */
export function formatListTime(epochMs: number, now: number = Date.now(), locale?: string): string {
  const date = new Date(epochMs);
  const today = new Date(now);
  const year = date.getFullYear();
  const month = date.getMonth();
  const day = date.getDate();
  if (day === today.getDate() && month === today.getMonth() && year === today.getFullYear()) return dateFormat(locale, LIST_TIME_OPTIONS).format(date);
  const thisYear = year === today.getFullYear();
  const key = `${locale ?? ''}|${year}-${month}-${day}|${thisYear ? 1 : 0}`;
  let label = dayLabels.get(key);
  if (label === undefined) {
    label = dateFormat(locale, thisYear ? THIS_YEAR_OPTIONS : OLDER_OPTIONS).format(date);
    if (dayLabels.size >= MAX_DAY_LABELS) dayLabels.clear();
    dayLabels.set(key, label);
  }
  return label;
}

/** The full date for the row's tooltip and accessible name. */
export function formatFullTime(epochMs: number, locale?: string): string {
  return dateFormat(locale, LIST_FULL_OPTIONS).format(epochMs);
}

// ── A message header's date ───────────────────────────────────────────────────
const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

const TIME_OPTIONS: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const DAY_OPTIONS: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' };
const DAY_YEAR_OPTIONS: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };
const MESSAGE_FULL_OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'full', timeStyle: 'short' };

/** Today: "14:05"; this year: "4 Mar, 14:05"; older: "4 Mar 2023". */
export function formatMessageDate(epochMs: number, now: number = Date.now(), locale?: string): string {
  const date = new Date(epochMs);
  const today = new Date(now);
  const time = dateFormat(locale, TIME_OPTIONS).format(date);
  if (sameDay(date, today)) return time;
  if (date.getFullYear() === today.getFullYear()) return `${dateFormat(locale, DAY_OPTIONS).format(date)}, ${time}`;
  return dateFormat(locale, DAY_YEAR_OPTIONS).format(date);
}

/** The full date for tooltips: "Tuesday 4 March 2025 at 14:05". */
export function formatFullDate(epochMs: number, locale?: string): string {
  return dateFormat(locale, MESSAGE_FULL_OPTIONS).format(epochMs);
}
