/**
 * vCard 2.1, 3.0 and 4.0 (RFC 2426, RFC 6350) into the fields of a card, and cards back into
 * vCard 3.0 (the version every address book reads). Lines are unfolded (a line starting with
 * a space or tab continues the one before); 2.1's QUOTED-PRINTABLE values, with their soft
 * line breaks and CHARSET (owncloud contacts #807, #789: such files were refused), are
 * decoded. Read: FN, N, EMAIL, TEL, ORG, NOTE; the rest (photos, addresses, birthdays) is
 * left out.
 */
import type { Contact } from '../contacts';
import type { RowFields } from './csv-columns';

interface Property {
  readonly name: string;
  readonly params: readonly string[];
  readonly value: string;
}

/** Logical lines: folded lines joined, and a quoted-printable value's soft breaks ("=" at the end) joined. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.split(/\r\n|\n|\r/)) {
    const last = lines.length - 1;
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && last >= 0) lines[last] += raw.slice(1);
    else if (last >= 0 && /QUOTED-PRINTABLE/i.test(lines[last]!.split(':', 1)[0]!) && lines[last]!.endsWith('=')) lines[last] = lines[last]!.slice(0, -1) + raw;
    else lines.push(raw);
  }
  return lines;
}

/** NAME;PARAM;PARAM:value — the name without its group ("item1.EMAIL" is EMAIL), params as written. */
function parseLine(line: string): Property | null {
  let colon = -1;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ':' && !quoted) {
      colon = i;
      break;
    }
  }
  if (colon <= 0) return null;
  const [name = '', ...params] = line.slice(0, colon).split(';');
  return { name: name.replace(/^.*\./, '').toUpperCase(), params, value: line.slice(colon + 1) };
}

const param = (property: Property, key: string): string | undefined => {
  for (const item of property.params) {
    const [k, v] = item.split('=', 2);
    if (k!.toUpperCase() === key) return v?.replace(/^"|"$/g, '');
  }
  return undefined;
};

function decodeQuotedPrintable(value: string, charset: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (char !== '=') bytes.push(...new TextEncoder().encode(char));
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(new Uint8Array(bytes));
}

/** A property's value as text: quoted-printable decoded (2.1), escapes of 3.0/4.0 undone per component. */
function components(property: Property): string[] {
  const quotedPrintable = property.params.some((item) => /QUOTED-PRINTABLE/i.test(item));
  const raw = quotedPrintable ? decodeQuotedPrintable(property.value, param(property, 'CHARSET') ?? 'utf-8') : property.value;
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      current += next === 'n' || next === 'N' ? '\n' : next;
    } else if (char === ';') {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim());
}

/** How many cards a text holds (BEGIN:VCARD lines), counted before any is parsed (the import limit). */
export const countVcards = (text: string): number => text.match(/^BEGIN:VCARD\s*$/gim)?.length ?? 0;

/** The cards of a vCard file, as fields to validate; a card without END is read to the end of the file. */
export function parseVcards(text: string): RowFields[] {
  const cards: RowFields[] = [];
  let card: (RowFields & { fullName: string }) | null = null;
  let depth = 0;
  const finish = () => {
    if (!card) return;
    const { fullName, ...fields } = card;
    if (fields.firstName === '' && fields.lastName === '' && fullName !== '') {
      const space = fullName.lastIndexOf(' ');
      fields.firstName = space > 0 ? fullName.slice(0, space) : fullName;
      fields.lastName = space > 0 ? fullName.slice(space + 1) : '';
    }
    cards.push(fields);
    card = null;
  };
  for (const line of logicalLines(text)) {
    const property = parseLine(line);
    if (!property) continue;
    if (property.name === 'BEGIN' && /^vcard$/i.test(property.value.trim())) {
      // A vCard inside a vCard (2.1's AGENT) is part of the outer one, not a card of its own.
      if (depth++ === 0) card = { firstName: '', lastName: '', fullName: '', emails: [], phones: [], company: '', notes: '' };
      continue;
    }
    if (property.name === 'END' && /^vcard$/i.test(property.value.trim())) {
      if (--depth === 0) finish();
      depth = Math.max(depth, 0);
      continue;
    }
    if (!card || depth !== 1) continue;
    const current: RowFields & { fullName: string } = card;
    const parts = components(property);
    switch (property.name) {
      case 'FN':
        current.fullName = parts.join(';');
        break;
      case 'N':
        current.lastName = parts[0] ?? '';
        current.firstName = [parts[1], parts[2]].filter(Boolean).join(' ');
        break;
      case 'EMAIL': {
        const email = parts.join(';').replace(/^mailto:/i, '');
        if (email) current.emails.push(email);
        break;
      }
      case 'TEL': {
        const phone = parts.join(';').replace(/^tel:/i, '');
        if (phone) current.phones.push(phone);
        break;
      }
      case 'ORG':
        current.company = parts.filter(Boolean).join(', ');
        break;
      case 'NOTE':
        current.notes = current.notes ? `${current.notes}\n${parts.join(';')}` : parts.join(';');
        break;
    }
  }
  finish();
  return cards;
}

/** A value escaped for vCard 3.0 (backslash, comma, semicolon, line breaks). */
const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/;/g, '\\;').replace(/\r?\n/g, '\\n');

/** Folds a line at 75 characters (RFC 6350 §3.2 counts octets; characters keep a letter whole). */
function fold(line: string): string {
  const chars = [...line];
  if (chars.length <= 75) return line;
  const pieces: string[] = [chars.slice(0, 75).join('')];
  for (let i = 75; i < chars.length; i += 74) pieces.push(` ${chars.slice(i, i + 74).join('')}`);
  return pieces.join('\r\n');
}

/** Cards as one vCard 3.0 file (CRLF line ends). */
export function toVcards(cards: readonly Pick<Contact, 'id' | 'firstName' | 'lastName' | 'emails' | 'phones' | 'company' | 'notes'>[]): string {
  const lines: string[] = [];
  for (const card of cards) {
    const full = `${card.firstName} ${card.lastName}`.trim() || card.company || card.emails[0] || '';
    lines.push('BEGIN:VCARD', 'VERSION:3.0', `UID:${escape(card.id)}`, `N:${escape(card.lastName)};${escape(card.firstName)};;;`, `FN:${escape(full)}`);
    if (card.company) lines.push(`ORG:${escape(card.company)}`);
    for (const email of card.emails) lines.push(`EMAIL;TYPE=INTERNET:${escape(email)}`);
    for (const phone of card.phones) lines.push(`TEL:${escape(phone)}`);
    if (card.notes) lines.push(`NOTE:${escape(card.notes)}`);
    lines.push('END:VCARD');
  }
  return lines.map(fold).join('\r\n') + (lines.length > 0 ? '\r\n' : '');
}
