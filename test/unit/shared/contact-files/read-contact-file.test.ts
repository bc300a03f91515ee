/**
 * Reading imported address books (shared/contact-files): Google's and Outlook's CSV exports
 * in the encodings they come in, vCard 2.1/3.0/4.0, and every kind of bad file the import must
 * refuse with the catalogue's error rather than import noise or half a file.
 */
import { describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { guessMapping } from '../../../../shared/contact-files/csv-columns';
import { parseCsv } from '../../../../shared/contact-files/csv-rows';
import { toCsv } from '../../../../shared/contact-files/csv-export';
import { readContactFile } from '../../../../shared/contact-files/read-contact-file';
import { detectEncoding } from '../../../../shared/contact-files/text-decoding';
import { parseVcards, toVcards } from '../../../../shared/contact-files/vcard';
import { encoded, GOOGLE_CSV, GOOGLE_OLD_CSV, OUTLOOK_CSV, VCARD_21, VCARD_30, VCARD_40 } from './samples';

const utf8 = (text: string) => new TextEncoder().encode(text);

function refusal(work: () => unknown): { name: string; detail: unknown } {
  try {
    work();
  } catch (error) {
    if (error instanceof TernError) return { name: error.name, detail: error.detail };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('CSV exports', () => {
  test("Google's export with a BOM: headers mapped by name, ` ::: ` split, Cyrillic intact, the blank row left out", () => {
    const read = readContactFile(encoded(GOOGLE_CSV, 'utf-8-bom'));
    expect(read.format).toBe('csv');
    expect(read.headers[0]).toBe('First Name'); // the BOM is not part of the first header
    expect(read.total).toBe(3);
    expect(read.invalid).toEqual([]);
    expect(read.cards[0]).toMatchObject({ firstName: 'Anna', lastName: 'Kite', company: 'Kite GmbH', emails: ['anna@kite.test', 'anna.kite@home.test'], phones: ['+49 30 1234', '+49 170 5555'], notes: 'Met at the fair,\nlikes tea' });
    expect(read.cards[1]).toMatchObject({ firstName: 'Дмитрий', lastName: 'Иванов', emails: ['dmitri@example.ru'] });
    // Two spellings of one mailbox (case, +suffix) are one address on the card.
    expect(read.cards[2]!.emails).toEqual(['bob@stone.test']);
    const mapping = read.mapping;
    expect(mapping[read.headers.indexOf('E-mail 1 - Label')]).toBe('ignore');
    expect(mapping[read.headers.indexOf('Labels')]).toBe('ignore');
  });

  test("Google's older export and Outlook's (UTF-16LE with BOM, Windows-1252): names, phones, company, the display name column not an address", () => {
    expect(readContactFile(utf8(GOOGLE_OLD_CSV)).cards[0]).toMatchObject({ firstName: 'Carla', lastName: 'Reed', emails: ['carla@reed.test'], phones: ['+1 555 0100'], company: 'Reed & Sons' });
    const expected = { firstName: 'Jürgen', lastName: 'Müller', emails: ['juergen@mueller.test', 'j.mueller@work.test'], phones: ['+49 89 111'], company: 'Müller & Söhne', notes: 'Grüße aus München' };
    for (const encoding of ['utf-16le-bom', 'windows-1252'] as const) {
      const read = readContactFile(encoded(OUTLOOK_CSV, encoding));
      expect(read.encoding).toBe(encoding === 'windows-1252' ? 'windows-1252' : 'utf-16le');
      expect(read.cards).toEqual([expected]);
    }
    expect(guessMapping(['E-mail Display Name', 'Business Fax', 'Mobile Phone', 'Vorname', 'E-Mail-Adresse', 'Firma'])).toEqual(['ignore', 'ignore', 'phone', 'firstName', 'email', 'company']);
  });

  test('a confirmed mapping overrides the guess; Excel semicolons; quotes and line breaks inside fields', () => {
    const text = 'Wer;Adresse;Telefon\n"Lee; Ann";ann@lee.test;"+1 ""555"""\n';
    expect(parseCsv(text)).toEqual([['Wer', 'Adresse', 'Telefon'], ['Lee; Ann', 'ann@lee.test', '+1 "555"']]);
    const read = readContactFile(utf8(text), { mapping: ['fullName', 'email', 'phone'] });
    expect(read.cards).toEqual([{ firstName: 'Lee;', lastName: 'Ann', emails: ['ann@lee.test'], phones: ['+1 "555"'], company: '', notes: '' }]);
  });

  test('an invalid address or an empty card is listed with its row, the other rows kept', () => {
    const text = 'Name,E-mail Address\nGood One,good@one.test\nBad One,not an address\n,\nNo Mail,\n';
    const read = readContactFile(utf8(text));
    expect(read.cards.map((card) => card.emails)).toEqual([['good@one.test'], []]);
    expect(read.invalid).toEqual([{ row: 3, reason: 'invalidEmail', value: 'not an address' }]);
  });

  test('export as CSV and read back: the same cards', () => {
    const cards = [
      { id: 'a', firstName: 'Anna', lastName: 'Kite', emails: ['anna@kite.test', 'a@k.test'], phones: ['+49 1'], company: 'Kite, GmbH', notes: 'two\nlines "quoted"' },
      { id: 'b', firstName: 'Дмитрий', lastName: '', emails: ['d@example.ru'], phones: [], company: '', notes: '' },
    ];
    const back = readContactFile(utf8(toCsv(cards)));
    expect(back.cards).toEqual(cards.map(({ id: _id, ...card }) => card));
  });
});

describe('vCard', () => {
  test('3.0: folded lines, grouped properties, escapes, FN when there is no N; photos left out', () => {
    const read = readContactFile(utf8(VCARD_30));
    expect(read.format).toBe('vcard');
    expect(read.cards).toEqual([
      { firstName: 'Anna', lastName: 'Kite', emails: ['anna@kite.test', 'anna@home.test'], phones: ['+49 170 5555'], company: 'Kite GmbH, Sales', notes: 'First line\nsecond line, with a comma and a very long tail that is folded by the writer at seventy-five octets' },
      { firstName: 'Only', lastName: 'Fullname', emails: ['only@full.test'], phones: [], company: '', notes: '' },
    ]);
  });

  test('4.0 with tel: URIs, and 2.1 quoted-printable with soft line breaks and a Latin-1 charset', () => {
    expect(readContactFile(utf8(VCARD_40)).cards).toEqual([{ firstName: 'Zoë', lastName: 'Ørsted', emails: ['zoe@orsted.test'], phones: ['+45-1234-5678'], company: '', notes: '' }]);
    expect(parseVcards(VCARD_21)).toEqual([{ firstName: 'Jürgen', lastName: 'Müller', emails: ['juergen@mueller.test'], phones: ['+49 171 999'], company: '', notes: 'Grüße aus der Straße, eine lange Notiz die umbrochen wurde' }]);
  });

  test('export as vCard 3.0 and read back: the same cards, long lines folded', () => {
    const cards = [{ id: 'card-1', firstName: 'Ann;e', lastName: 'Kite, Jr', emails: ['ann@kite.test'], phones: ['+1 2'], company: 'K', notes: `${'long '.repeat(40)}\nend` }];
    const text = toVcards(cards);
    expect(text.split('\r\n').every((line) => line.length <= 75)).toBe(true);
    expect(readContactFile(utf8(text)).cards).toEqual([{ firstName: 'Ann;e', lastName: 'Kite, Jr', emails: ['ann@kite.test'], phones: ['+1 2'], company: 'K', notes: `${'long '.repeat(40)}\nend` }]);
  });
});

describe('files the import refuses', () => {
  test('a CSV without an address column, or a mapping that maps none: InvalidCsvUpload noEmailColumn', () => {
    expect(refusal(() => readContactFile(utf8('Name,Phone\nAnn,123\n')))).toEqual({ name: 'InvalidCsvUpload', detail: { reason: 'noEmailColumn', headers: ['Name', 'Phone'] } });
    expect(refusal(() => readContactFile(utf8('Name,Mail\nAnn,a@b.test\n'), { mapping: ['fullName', 'ignore'] })).name).toBe('InvalidCsvUpload');
    expect(refusal(() => readContactFile(utf8('Name,Mail\nAnn,a@b.test\n'), { mapping: ['email'] })).detail).toEqual({ reason: 'mappingMismatch', columns: 2 });
  });

  test('a file over the size limit, binary garbage, an unclosed quote, an empty file', () => {
    expect(refusal(() => readContactFile(new Uint8Array(2048), { maxBytes: 1024 }))).toEqual({ name: 'InvalidCsvUpload', detail: { reason: 'tooLarge', sizeBytes: 2048, limitBytes: 1024 } });
    // An image's first bytes, then noise from a fixed generator.
    let seed = 7;
    const noise = Uint8Array.from({ length: 4096 }, (_, i) => (i < 8 ? [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a][i]! : (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256));
    expect(refusal(() => readContactFile(noise)).detail).toEqual({ reason: 'notText' });
    expect(refusal(() => readContactFile(utf8('Name,E-mail\n"Ann,a@b.test\n'))).detail).toEqual({ reason: 'unclosedQuote' });
    expect(refusal(() => readContactFile(new Uint8Array(0))).detail).toEqual({ reason: 'notText' });
  });

  test('more cards than a file may hold: CsvImportContactsLimitExceed for CSV and vCard, counted before parsing', () => {
    const csv = `E-mail\n${Array.from({ length: 11 }, (_, i) => `p${i}@x.test`).join('\n')}\n`;
    expect(refusal(() => readContactFile(utf8(csv), { maxContacts: 10 }))).toEqual({ name: 'CsvImportContactsLimitExceed', detail: { limit: 10, count: 11 } });
    const vcards = Array.from({ length: 11 }, (_, i) => `BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:p${i}@x.test\r\nEND:VCARD`).join('\r\n');
    expect(refusal(() => readContactFile(utf8(vcards), { maxContacts: 10 }))).toEqual({ name: 'CsvImportContactsLimitExceed', detail: { limit: 10, count: 11 } });
  });

  test('encodings: UTF-16 without a mark is recognised, plain ASCII is UTF-8', () => {
    expect(detectEncoding(new Uint8Array(Buffer.from('Name,E-mail\r\nAnn,a@b.test', 'utf16le'))).encoding).toBe('utf-16le');
    expect(detectEncoding(utf8('Name,E-mail')).encoding).toBe('utf-8');
  });
});
