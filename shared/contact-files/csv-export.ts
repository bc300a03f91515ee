/**
 * Cards as a CSV file in Google's layout (its header names, several addresses and phones in one
 * cell joined by ` ::: `), so Google Contacts, Outlook's import wizard and Tern's own import
 * read it back. UTF-8 with a byte order mark: Excel otherwise reads it as Windows-1252.
 */
import type { Contact } from '../contacts';
import { csvField } from './csv-rows';

const HEADER = ['First Name', 'Last Name', 'Organization Name', 'E-mail 1 - Value', 'Phone 1 - Value', 'Notes'];

export function toCsv(cards: readonly Pick<Contact, 'firstName' | 'lastName' | 'emails' | 'phones' | 'company' | 'notes'>[]): string {
  const lines = [HEADER.join(',')];
  for (const card of cards) lines.push([card.firstName, card.lastName, card.company, card.emails.join(' ::: '), card.phones.join(' ::: '), card.notes].map(csvField).join(','));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
