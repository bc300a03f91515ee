import parseResponse from 'imapflow/lib/handler/imap-parser.js';
import { parseBodystructure, parseEnvelope } from 'imapflow/lib/tools.js';
import { describe, expect, test } from 'vitest';
import { readBodystructure, readEnvelope } from '../../../../src-server/imap/envelope-reader';
import { parseFetchResponse, type ImapAttributeList } from '../../../../src-server/imap/fetch-parser';
import recorded from './fixtures/fetch-responses.json';

/** ENVELOPE and BODYSTRUCTURE values of a parsed FETCH response. */
function itemsOf(attributes: ImapAttributeList): { envelope?: ImapAttributeList; structure?: ImapAttributeList } {
  const items = attributes[1] as ImapAttributeList;
  const out: { envelope?: ImapAttributeList; structure?: ImapAttributeList } = {};
  for (let i = 0; i + 1 < items.length; i += 2) {
    const name = items[i];
    const value = items[i + 1];
    if (!name || Array.isArray(name) || !Array.isArray(value)) continue;
    if (String(name.value).toUpperCase() === 'ENVELOPE') out.envelope = value;
    if (String(name.value).toUpperCase() === 'BODYSTRUCTURE') out.structure = value;
  }
  return out;
}

/** Ours and imapflow's readings of one list, each on its own parse (imapflow's readers may consume what they read). */
function expectSameEnvelope(parse: () => ImapAttributeList) {
  const ours = readEnvelope(parse());
  expect(ours).toStrictEqual(parseEnvelope(parse()));
  return ours;
}
function expectSameStructure(parse: () => ImapAttributeList) {
  const ours = readBodystructure(parse());
  expect(ours).toStrictEqual(parseBodystructure(parse()));
  return ours;
}

/** A list in the parsed form, from its IMAP text (and literals), through our FETCH parser. */
function list(text: string, literals: string[] = []): ImapAttributeList {
  const parsed = parseFetchResponse(Buffer.from(`* 1 FETCH (X ${text})`, 'utf8'), literals.map((literal) => Buffer.from(literal, 'utf8')));
  if (!parsed) throw new Error(`unparsable: ${text}`);
  return ((parsed.attributes[1] as ImapAttributeList)[1] as ImapAttributeList) ?? [];
}

describe('ENVELOPE and BODYSTRUCTURE read as imapflow reads them', () => {
  const responses = recorded as { server: string; payload: string; literals: string[] }[];

  test.each(responses.map((response, index) => [`${response.server} #${(index % 5) + 1}`, response] as const))(
    'a recorded response of %s: literals, NIL everywhere, 8-bit and encoded words, nested parts, RFC 2231',
    async (_name, response) => {
      const payload = Buffer.from(response.payload, 'base64');
      const literals = response.literals.map((literal) => Buffer.from(literal, 'base64'));
      const ours = () => itemsOf(parseFetchResponse(payload, literals)!.attributes);
      const { envelope, structure } = ours();
      expect(envelope && structure).toBeTruthy();
      expectSameEnvelope(() => ours().envelope!);
      expectSameStructure(() => ours().structure!);
      // imapflow's own parser gives the same tree, so the same readings.
      const theirs = itemsOf((await parseResponse(payload, { literals: [...literals] })).attributes as ImapAttributeList);
      expect(readEnvelope(theirs.envelope!)).toStrictEqual(readEnvelope(envelope!));
      expect(readBodystructure(theirs.structure!)).toStrictEqual(readBodystructure(structure!));
    },
  );

  test('what the recordings hold reads as a user expects (the comparison above is not of two empty things)', () => {
    const read = responses.map((response) => itemsOf(parseFetchResponse(Buffer.from(response.payload, 'base64'), response.literals.map((l) => Buffer.from(l, 'base64')))!.attributes));
    const dovecot = read.slice(0, 5);
    expect(readEnvelope(dovecot[0]!.envelope!).subject).toBe('Grüße aus Köln and café');
    expect(readEnvelope(dovecot[0]!.envelope!).from).toEqual([{ name: 'André Pirard', address: 'andre@example.org' }]);
    expect(readEnvelope(dovecot[0]!.envelope!).cc).toEqual([{ name: 'undisclosed-recipients', address: '' }]);
    expect(readEnvelope(dovecot[1]!.envelope!).subject).toMatch(/^Grüße — word0 .* word119$/);
    expect(readEnvelope(dovecot[2]!.envelope!)).toEqual({});
    expect(readEnvelope(dovecot[3]!.envelope!).date).toBe('not a date');
    const nested = readBodystructure(dovecot[4]!.structure!);
    const pdf = nested.childNodes![1]!;
    expect(pdf.dispositionParameters?.filename).toBe('Angebot für Köln.pdf');
    expect(pdf.parameters?.name).toBe('Angebot für Köln.pdf');
    expect(nested.childNodes![2]!.envelope?.subject).toBe('inner');
    expect(nested.childNodes![3]!.parameters?.name).toBe('Grüße.txt');
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  test('odd shapes a server may send: tokens where lists go, odd parameter lists, no line count, NIL inside address lists', () => {
    const envelopes = [
      '(NIL NIL NIL NIL NIL NIL NIL NIL NIL NIL)',
      '("" "" () () NIL NIL NIL NIL "" "")',
      '("Mon, 1 Jan 2024 00:00:00 +0000" "\\"quoted\\" subject" (NIL ("\\"Q\\"" NIL "q" "x.org") (NIL NIL NIL NIL) ("n" NIL NIL "x.org")) NIL NIL ((NIL NIL "grp" NIL)("A" NIL "a" "x.org")(NIL NIL NIL NIL)) NIL NIL " <r@x> " " <m@x> ")',
      '(NIL "=?utf-8?q?a?= =?utf-8?q?b?=" (("=?utf-8?b?w6k=?=" NIL "e" "x.org")) NIL NIL ((NIL NIL "=?utf-8?q?Gr=C3=BCppe?=" NIL)) NIL NIL NIL NIL)',
      // A literal subject holding libmime's NUL join marker character (the line keeps only the literal's marker).
      '(NIL {5}\r\n NIL NIL NIL NIL NIL NIL NIL NIL)',
    ];
    for (const text of envelopes) expectSameEnvelope(() => list(text, text.includes('{5}') ? ['ab\0cd'] : []));
    const structures = [
      '("text" "plain" NIL NIL NIL "7bit" 0)',
      '("TEXT" "PLAIN" ("CHARSET" "US-ASCII" "odd") NIL NIL "7BIT" 5 ("attachment" ("filename" "a.txt")) NIL NIL)',
      '("application" "octet-stream" ("name*0" "a" "name*1" "b.bin" "filename" "utf-8\'en\'x%20y") "<id>" "desc" "BASE64" 100 "md5sum" ("ATTACHMENT" NIL) "EN" "loc")',
      '("application" "x" ("constructor" "c" "__proto__" "p" "name" "=?utf-8?q?K=C3=B6ln?=") NIL NIL NIL NIL NIL NIL ("de" "en") NIL)',
      '("message" "rfc822" NIL NIL NIL "7bit" 10 (NIL "s" NIL NIL NIL NIL NIL NIL NIL NIL) NIL 3)',
      '("message" "rfc822" NIL NIL NIL "7bit" 10 NIL "token" 3)',
      '(("text" "plain" NIL NIL NIL "7bit" 1 1)(("text" "html" NIL NIL NIL "7bit" 1 1)("image" "png" NIL NIL NIL "base64" 1) "related") "alternative" ("boundary" "x" "lonely") ("inline" ("filename*" "utf-8\'\'a%20b")) "en" "http://l")',
    ];
    for (const text of structures) expectSameStructure(() => list(text));
  });
});
