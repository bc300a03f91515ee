/**
 * An imported address book file read whole (issue 18 point 4), the same way in the engine
 * (the preview the person confirms) and on the gateway (the import itself): its size, its
 * encoding, CSV or vCard, the limit of cards per file, the column mapping, and every row
 * validated by the card's own schema. What is wrong with the file as a whole is a catalogue
 * error thrown here; a row that is wrong is listed (row number, reason), never dropped silently.
 */
import { CONTACT_LIMITS, contactInputSchema, type ContactInput } from '../contacts';
import { TernError } from '../errors';
import { cellValues, guessMapping, rowFields, type CsvField, type RowFields } from './csv-columns';
import { parseCsv } from './csv-rows';
import { decodeText, type TextEncodingName } from './text-decoding';
import { countVcards, parseVcards } from './vcard';

export type ContactFileFormat = 'csv' | 'vcard';

/** Why a row was not taken: an address that is not one, nothing to make a card of, a field too long. */
export type InvalidRowReason = 'invalidEmail' | 'noNameOrEmail' | 'tooLong';

export interface InvalidRow {
  /** The row's line in the CSV (the header is 1), or the card's number in a vCard file (from 1). */
  readonly row: number;
  readonly reason: InvalidRowReason;
  /** The offending value (the address), or the field that is too long. */
  readonly value: string;
}

export interface ContactFileRead {
  readonly format: ContactFileFormat;
  readonly encoding: TextEncodingName;
  /** The CSV's header ([] for vCard). */
  readonly headers: readonly string[];
  /** The field each column fills: the one given, else the guess from the headers ([] for vCard). */
  readonly mapping: readonly CsvField[];
  /** The first rows of a CSV under its header (for the preview); [] for vCard. */
  readonly sample: readonly (readonly string[])[];
  /** Rows or cards read, valid or not (blank ones left out). */
  readonly total: number;
  readonly cards: readonly ContactInput[];
  readonly invalid: readonly InvalidRow[];
}

export interface ReadOptions {
  /** The column mapping the person confirmed; absent: the guess. */
  readonly mapping?: readonly CsvField[];
  /** Bytes of a file at most (CONTACT_LIMITS.importBytes; tests lower it). */
  readonly maxBytes?: number;
  /** Cards of a file at most (CONTACT_LIMITS.importContacts). */
  readonly maxContacts?: number;
}

const invalidUpload = (reason: string, extra: Record<string, unknown> = {}) => new TernError('InvalidCsvUpload', { detail: { reason, ...extra } });

/** Validates the fields of one row or card: the card, or why not. */
function validate(fields: RowFields, row: number): { card: ContactInput } | { invalid: InvalidRow } {
  if (fields.emails.length + fields.phones.length === 0 && !fields.firstName && !fields.lastName && !fields.company && !fields.notes) return { invalid: { row, reason: 'noNameOrEmail', value: '' } };
  const parsed = contactInputSchema.safeParse(fields);
  if (parsed.success) return { card: parsed.data };
  const issue = parsed.error.issues[0]!;
  if (issue.path[0] === 'emails' && typeof issue.path[1] === 'number') return { invalid: { row, reason: 'invalidEmail', value: fields.emails[issue.path[1]] ?? '' } };
  if (issue.path.length > 0) return { invalid: { row, reason: 'tooLong', value: String(issue.path[0]) } };
  return { invalid: { row, reason: 'noNameOrEmail', value: '' } };
}

/** Reads a whole file; throws InvalidCsvUpload (detail.reason) or CsvImportContactsLimitExceed (detail.limit, count). */
export function readContactFile(bytes: Uint8Array, options: ReadOptions = {}): ContactFileRead {
  const maxBytes = options.maxBytes ?? CONTACT_LIMITS.importBytes;
  const maxContacts = options.maxContacts ?? CONTACT_LIMITS.importContacts;
  if (bytes.length > maxBytes) throw invalidUpload('tooLarge', { sizeBytes: bytes.length, limitBytes: maxBytes });
  const { text, encoding } = decodeText(bytes);
  const cards: ContactInput[] = [];
  const invalid: InvalidRow[] = [];
  const take = (fields: RowFields, row: number) => {
    const result = validate(fields, row);
    if ('card' in result) cards.push(result.card);
    else invalid.push(result.invalid);
  };

  if (/^\s*BEGIN:VCARD/i.test(text)) {
    const count = countVcards(text);
    if (count > maxContacts) throw new TernError('CsvImportContactsLimitExceed', { detail: { limit: maxContacts, count } });
    parseVcards(text).forEach((fields, index) => take(fields, index + 1));
    return { format: 'vcard', encoding, headers: [], mapping: [], sample: [], total: cards.length + invalid.length, cards, invalid };
  }

  const rows = parseCsv(text);
  const [headers, ...data] = rows;
  if (!headers || headers.every((header) => header.trim() === '')) throw invalidUpload('empty');
  const mapping = options.mapping ?? guessMapping(headers);
  if (mapping.length !== headers.length) throw invalidUpload('mappingMismatch', { columns: headers.length });
  if (!mapping.includes('email')) throw invalidUpload('noEmailColumn', { headers });
  if (data.length > maxContacts) throw new TernError('CsvImportContactsLimitExceed', { detail: { limit: maxContacts, count: data.length } });
  let total = 0;
  data.forEach((row, index) => {
    if (row.every((cell) => cell.trim() === '')) return;
    total++;
    take(rowFields(row, mapping), index + 2);
  });
  return { format: 'csv', encoding, headers, mapping, sample: data.slice(0, 3), total, cards, invalid };
}

/** Whether a cell of the given column would be split into several values (for the preview). */
export const isMultiValue = (cell: string): boolean => cellValues(cell).length > 1;
