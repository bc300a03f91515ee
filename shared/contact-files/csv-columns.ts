/**
 * Which card field each column of an imported CSV fills, by its header (issue 18 point 4): a
 * mapping by name, never by position, so Google's and Outlook's exports — and their changes
 * over the years (tine20 #2111) — are read alike, and the person confirms or corrects the
 * guess before anything is imported. Google writes several values in one cell joined by
 * ` ::: ` (owncloud contacts #820, #574); those are split here.
 */
import * as z from 'zod';

/** What a column may fill; 'ignore' leaves it out. */
export const CSV_FIELDS = ['firstName', 'lastName', 'fullName', 'email', 'phone', 'company', 'notes', 'ignore'] as const;
export type CsvField = (typeof CSV_FIELDS)[number];
export const csvFieldSchema = z.enum(CSV_FIELDS);

/** Google's separator of several values in one cell. */
const MULTI_VALUE = /\s+:::\s+/;

/** The header as letters and digits only, lowercased: "E-mail 1 - Value" is "email1value". */
const squash = (header: string) => header.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '');

/**
 * The field a header most likely means. Knows Google's current and older exports ("First
 * Name", "Given Name", "E-mail 1 - Value", "Organization 1 - Name"), Outlook's ("E-mail
 * Address", "E-mail 2 Address", "Mobile Phone", "Business Phone", "Company") and Outlook's
 * German headers ("Vorname", "E-Mail-Adresse", "Firma"). Labels and types of a value
 * ("E-mail 1 - Type", "Phone 1 - Label"), display names and faxes are left out.
 */
export function guessField(header: string): CsvField {
  const h = squash(header);
  if (h === '') return 'ignore';
  if (/type|label|displayname|anzeigename/.test(h)) return 'ignore';
  if (/mail/.test(h)) return /value$|address|adresse|^e?mail\d*$/.test(h) ? 'email' : 'ignore';
  if (/fax/.test(h)) return 'ignore';
  if (/phone|mobile|telefon|tel$|^tel|handy|mobil/.test(h) && !/type|label/.test(h)) return 'phone';
  if (/^(firstname|givenname|vorname|first)$/.test(h)) return 'firstName';
  if (/^(lastname|familyname|surname|nachname|last)$/.test(h)) return 'lastName';
  if (/^(name|fullname|displayname|formattedname)$/.test(h)) return 'fullName';
  if (/^(company|organization\d*name|organisation\d*name|organization|organisation|firma|unternehmen)$/.test(h)) return 'company';
  if (/^(notes?|notizen|comments?)$/.test(h)) return 'notes';
  return 'ignore';
}

export const guessMapping = (headers: readonly string[]): CsvField[] => headers.map(guessField);

/** What one CSV row gives a card, before validation. */
export interface RowFields {
  firstName: string;
  lastName: string;
  emails: string[];
  phones: string[];
  company: string;
  notes: string;
}

/** Splits a cell into its values (Google's ` ::: `), trimmed, empty ones dropped. */
export const cellValues = (cell: string): string[] =>
  cell
    .split(MULTI_VALUE)
    .map((value) => value.trim())
    .filter(Boolean);

/** The fields of one row under a mapping; a full name fills first and last name when those are empty. */
export function rowFields(row: readonly string[], mapping: readonly CsvField[]): RowFields {
  const fields: RowFields = { firstName: '', lastName: '', emails: [], phones: [], company: '', notes: '' };
  let fullName = '';
  const join = (old: string, value: string, separator: string) => (old === '' ? value : `${old}${separator}${value}`);
  mapping.forEach((field, index) => {
    const cell = (row[index] ?? '').trim();
    if (cell === '') return;
    switch (field) {
      case 'email':
        fields.emails.push(...cellValues(cell));
        break;
      case 'phone':
        fields.phones.push(...cellValues(cell));
        break;
      case 'firstName':
        fields.firstName = join(fields.firstName, cell, ' ');
        break;
      case 'lastName':
        fields.lastName = join(fields.lastName, cell, ' ');
        break;
      case 'fullName':
        fullName = join(fullName, cell, ' ');
        break;
      case 'company':
        fields.company = join(fields.company, cellValues(cell).join(', '), ', ');
        break;
      case 'notes':
        fields.notes = join(fields.notes, cell, '\n');
        break;
      case 'ignore':
        break;
    }
  });
  if (fields.firstName === '' && fields.lastName === '' && fullName !== '') {
    const space = fullName.lastIndexOf(' ');
    fields.firstName = space > 0 ? fullName.slice(0, space) : fullName;
    fields.lastName = space > 0 ? fullName.slice(space + 1) : '';
  }
  return fields;
}
