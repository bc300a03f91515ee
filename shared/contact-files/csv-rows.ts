/**
 * RFC 4180 CSV into rows of fields: quoted fields with doubled quotes, commas and line breaks
 * inside quotes, CRLF or LF line ends. The separator is guessed from the header line (comma,
 * semicolon as Excel writes in German and French locales, or tab). Blank lines are dropped.
 * A quote left open at the end is InvalidCsvUpload: the rest of the file would be one field.
 */
import { TernError } from '../errors';

const SEPARATORS = [',', ';', '\t'] as const;

/** The separator the header line uses most (outside quotes). */
export function guessSeparator(text: string): string {
  const end = text.search(/\r?\n/);
  const header = end < 0 ? text : text.slice(0, end);
  let best: string = ',';
  let bestCount = 0;
  for (const separator of SEPARATORS) {
    let count = 0;
    let quoted = false;
    for (const char of header) {
      if (char === '"') quoted = !quoted;
      else if (char === separator && !quoted) count++;
    }
    if (count > bestCount) {
      best = separator;
      bestCount = count;
    }
  }
  return best;
}

export function parseCsv(text: string, separator = guessSeparator(text)): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    field = '';
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += char;
      i++;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === separator) {
      row.push(field);
      field = '';
    } else if (char === '\n') endRow();
    else if (char === '\r') {
      if (text[i + 1] !== '\n') endRow();
    } else field += char;
    i++;
  }
  if (quoted) throw new TernError('InvalidCsvUpload', { detail: { reason: 'unclosedQuote' } });
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** One field as CSV writes it: quoted when it holds the separator, a quote or a line break. */
export function csvField(value: string): string {
  return /[",;\t\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
