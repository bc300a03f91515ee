import { expect, test } from 'vitest';
import { dateFormat, formatFullDate, formatFullTime, formatListTime, formatMessageDate } from '../../../../src-ui/kit/date-format';

/** What the row and message formats wrote before the formatters were cached, for comparison. */
function uncachedListTime(epochMs: number, now: number, locale?: string): string {
  const date = new Date(epochMs);
  const today = new Date(now);
  const sameDay = date.getFullYear() === today.getFullYear() && date.getMonth() === today.getMonth() && date.getDate() === today.getDate();
  if (sameDay) return date.toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
  if (date.getFullYear() === today.getFullYear()) return date.toLocaleDateString(locale, { month: 'short', day: 'numeric' });
  return date.toLocaleDateString(locale, { year: '2-digit', month: 'numeric', day: 'numeric' });
}
function uncachedMessageDate(epochMs: number, now: number, locale?: string): string {
  const date = new Date(epochMs);
  const today = new Date(now);
  const time = date.toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
  const sameDay = date.getFullYear() === today.getFullYear() && date.getMonth() === today.getMonth() && date.getDate() === today.getDate();
  if (sameDay) return time;
  if (date.getFullYear() === today.getFullYear()) return `${date.toLocaleDateString(locale, { day: 'numeric', month: 'short' })}, ${time}`;
  return date.toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric' });
}

test('cached formatters write exactly what toLocale*String wrote, in every locale, for today, this year and older', () => {
  const now = new Date(2026, 10, 20, 15, 30).getTime();
  const locales = [undefined, 'en-US', 'en-GB', 'de-DE', 'fr-FR', 'ja-JP', 'ar-EG'];
  // Every 3 days and 31 min over two and a half years: times of day, days of this year, older years, midnight edges.
  const samples: number[] = [];
  for (let at = now - 900 * 86_400_000; at <= now; at += 260_000_000) samples.push(at);
  samples.push(new Date(2026, 10, 20, 0, 0).getTime(), new Date(2026, 10, 19, 23, 59).getTime(), new Date(2026, 0, 1, 0, 0).getTime(), new Date(2025, 11, 31, 23, 59).getTime());
  for (const locale of locales) {
    for (const at of samples) {
      expect(formatListTime(at, now, locale)).toBe(uncachedListTime(at, now, locale));
      expect(formatFullTime(at, locale)).toBe(new Date(at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }));
      expect(formatMessageDate(at, now, locale)).toBe(uncachedMessageDate(at, now, locale));
      expect(formatFullDate(at, locale)).toBe(new Date(at).toLocaleString(locale, { dateStyle: 'full', timeStyle: 'short' }));
    }
  }
});

test('one formatter per locale and options object, built once', () => {
  const options: Intl.DateTimeFormatOptions = { month: 'long' };
  const first = dateFormat('en-GB', options);
  expect(dateFormat('en-GB', options)).toBe(first);
  expect(dateFormat('de-DE', options)).not.toBe(first);
  expect(dateFormat('en-GB', { month: 'long' })).not.toBe(first); // another object: keyed by identity, so callers pass constants
  expect(first.format(new Date(2026, 2, 4))).toBe('March');
});

test('the day label of a row changes with the day it is read on (a cached day is per "now" year and day)', () => {
  const at = new Date(2026, 2, 4, 9, 5).getTime();
  expect(formatListTime(at, new Date(2026, 2, 4, 18, 0).getTime(), 'en-GB')).toBe('9:05');
  expect(formatListTime(at, new Date(2026, 2, 5, 8, 0).getTime(), 'en-GB')).toBe('4 Mar');
  expect(formatListTime(at, new Date(2027, 0, 2, 8, 0).getTime(), 'en-GB')).toBe('04/03/26');
});
