/**
 * File sizes for people (spec §9: units B, KB, MB, GB, one decimal from MB up).
 * Binary multiples, as mail clients and file managers on the web show them.
 */
const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

const oneDecimal = new Map<string, Intl.NumberFormat>();

/** One decimal in the locale's way: "1.5" in English, "1,5" in German. */
function decimal(value: number, locale: string): string {
  let format = oneDecimal.get(locale);
  if (!format) oneDecimal.set(locale, (format = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false })));
  return format.format(value);
}

/** `locale`: the UI's language (a BCP 47 tag); the decimal separator follows it. */
export function formatFileSize(bytes: number, locale = 'en'): string {
  const size = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  if (size < KB) return `${Math.round(size)} B`;
  if (size < MB) {
    const kb = Math.round(size / KB);
    // 1023.6 KB would round to "1024 KB"; it reads better as the next unit.
    return kb < 1024 ? `${kb} KB` : `${decimal(1, locale)} MB`;
  }
  if (size < GB) {
    const mb = Math.round((size / MB) * 10) / 10;
    return mb < 1024 ? `${decimal(mb, locale)} MB` : `${decimal(1, locale)} GB`;
  }
  return `${decimal(size / GB, locale)} GB`;
}
