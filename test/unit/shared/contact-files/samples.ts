/**
 * Address book files as Google, Outlook and phones write them, made for these tests (no real
 * person's data): header names, quoting, multi-values and encodings as the exports have them.
 */

/** Google Contacts' export (2024 layout): UTF-8 with BOM, ` ::: ` multi-values, Cyrillic, a quoted note with a line break. */
export const GOOGLE_CSV = [
  'First Name,Middle Name,Last Name,Phonetic First Name,Phonetic Middle Name,Phonetic Last Name,Name Prefix,Name Suffix,Nickname,File As,Organization Name,Organization Title,Organization Department,Birthday,Notes,Photo,Labels,E-mail 1 - Label,E-mail 1 - Value,E-mail 2 - Label,E-mail 2 - Value,Phone 1 - Label,Phone 1 - Value',
  'Anna,,Kite,,,,,,,,Kite GmbH,CEO,,,"Met at the fair,\nlikes tea",,* myContacts,* Work,anna@kite.test ::: anna.kite@home.test,,,Mobile,+49 30 1234 ::: +49 170 5555',
  'Дмитрий,,Иванов,,,,,,,,,,,,,,* myContacts,* Home,dmitri@example.ru,,,,',
  'Bob,,Stone,,,,,,,,,,,,,,* myContacts,Work,bob@stone.test,Home,BOB+news@Stone.test,,',
  ',,,,,,,,,,,,,,,,,,,,,,',
].join('\r\n');

/** Google's older export ("Given Name", "Family Name", "E-mail 1 - Type"). */
export const GOOGLE_OLD_CSV = [
  'Name,Given Name,Additional Name,Family Name,Yomi Name,Notes,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Organization 1 - Type,Organization 1 - Name',
  'Carla Reed,Carla,,Reed,,,* My Contacts,* Other,carla@reed.test,Mobile,+1 555 0100,,Reed & Sons',
].join('\n');

const OUTLOOK_HEADERS = [
  'First Name', 'Middle Name', 'Last Name', 'Title', 'Suffix', 'Nickname', 'Given Yomi', 'Surname Yomi', 'E-mail Address', 'E-mail 2 Address', 'E-mail 3 Address',
  'Home Phone', 'Home Phone 2', 'Business Phone', 'Business Phone 2', 'Mobile Phone', 'Car Phone', 'Other Phone', 'Primary Phone', 'Pager', 'Business Fax', 'Home Fax',
  'Other Fax', 'Company Main Phone', 'Callback', 'Radio Phone', 'Telex', 'TTY/TDD Phone', 'IMAddress', 'Job Title', 'Department', 'Company', 'Office Location',
  "Manager's Name", "Assistant's Name", "Assistant's Phone", 'Company Yomi', 'Business Street', 'Business City', 'Business State', 'Business Postal Code',
  'Business Country/Region', 'Home Street', 'Home City', 'Home State', 'Home Postal Code', 'Home Country/Region', 'Personal Web Page', 'Spouse', 'Schools', 'Hobby',
  'Location', 'Web Page', 'Birthday', 'Anniversary', 'Notes', 'E-mail Display Name',
];
const OUTLOOK_ROW: Record<string, string> = {
  'First Name': 'Jürgen',
  'Last Name': 'Müller',
  'E-mail Address': 'juergen@mueller.test',
  'E-mail 2 Address': 'j.mueller@work.test',
  'Business Phone': '+49 89 111',
  'Business Fax': '+49 89 112',
  Company: 'Müller & Söhne',
  Notes: 'Grüße aus München',
  'E-mail Display Name': 'Jürgen Müller (juergen@mueller.test)',
};

/** Outlook's "Comma Separated Values" export: every field quoted, many empty columns, "E-mail Display Name" that is not an address, a fax. */
export const OUTLOOK_CSV = [OUTLOOK_HEADERS.map((header) => `"${header}"`).join(','), OUTLOOK_HEADERS.map((header) => `"${OUTLOOK_ROW[header] ?? ''}"`).join(',')].join('\r\n');

/** vCard 3.0 as Apple Contacts and Google write it: folded lines, grouped properties, escapes. */
export const VCARD_30 = [
  'BEGIN:VCARD',
  'VERSION:3.0',
  'N:Kite;Anna;;;',
  'FN:Anna Kite',
  'ORG:Kite GmbH;Sales',
  'item1.EMAIL;type=INTERNET;type=pref:anna@kite.test',
  'EMAIL;TYPE=INTERNET,HOME:anna@home.test',
  'TEL;TYPE=CELL:+49 170 5555',
  'NOTE:First line\\nsecond line\\, with a comma and a very long tail that is folded by the wri',
  ' ter at seventy-five octets',
  'PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD',
  'END:VCARD',
  'BEGIN:VCARD',
  'VERSION:3.0',
  'FN:Only Fullname',
  'EMAIL:only@full.test',
  'END:VCARD',
  '',
].join('\r\n');

/** vCard 4.0: URIs for phones, no N. */
export const VCARD_40 = ['BEGIN:VCARD', 'VERSION:4.0', 'FN:Zoë Ørsted', 'EMAIL;PREF=1:zoe@orsted.test', 'TEL;VALUE=uri;TYPE="voice,cell":tel:+45-1234-5678', 'END:VCARD'].join('\n');

/** vCard 2.1 from an old phone: QUOTED-PRINTABLE with soft line breaks and a Latin-1 charset. */
export const VCARD_21 = [
  'BEGIN:VCARD',
  'VERSION:2.1',
  'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;',
  'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen M=C3=BCller',
  'NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Gr=FC=DFe aus der Stra=DFe, eine lange Notiz die umbro=',
  'chen wurde',
  'TEL;CELL;PREF:+49 171 999',
  'EMAIL;INTERNET:juergen@mueller.test',
  'END:VCARD',
].join('\r\n');

/** Bytes of a text in an encoding as the exporters write it. */
export function encoded(text: string, encoding: 'utf-8-bom' | 'utf-16le-bom' | 'windows-1252'): Uint8Array {
  if (encoding === 'utf-8-bom') return new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(text, 'utf8')]);
  if (encoding === 'utf-16le-bom') return new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);
  // Windows-1252 agrees with Latin-1 for the letters these samples use (ä ö ü ß é).
  return new Uint8Array(Buffer.from(text, 'latin1'));
}
