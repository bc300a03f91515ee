import parseResponse from 'imapflow/lib/handler/imap-parser.js';
import { describe, expect, test } from 'vitest';
import { parseFetchResponse } from '../../../../src-server/imap/fetch-parser';

/** A response as imapflow's stream hands it on: the line with `{n}` markers, the literals apart. */
function wire(...parts: (string | Buffer)[]): { payload: Buffer; literals: Buffer[] } {
  const line: Buffer[] = [];
  const literals: Buffer[] = [];
  for (const part of parts) {
    if (typeof part === 'string') line.push(Buffer.from(part, 'utf8'));
    else {
      line.push(Buffer.from(`{${part.length}}\r\n`));
      literals.push(part);
    }
  }
  return { payload: Buffer.concat(line), literals };
}

/** What imapflow's parser makes of it, or the error it throws. */
async function imapflowReads(response: { payload: Buffer; literals: Buffer[] }) {
  return parseResponse(response.payload, { literals: [...response.literals] }).catch((error: Error) => error);
}

const ENVELOPE =
  '("Tue, 3 Nov 2026 09:15:00 +0100" "=?UTF-8?Q?Gr=C3=BC=C3=9Fe?= \\"quoted\\" back\\\\slash" (("André Pirard" NIL "andre" "example.org")) ' +
  '(("Andre" NIL "andre" "example.org")) NIL (("Bea" NIL "bea" "tern.test")("Cem" NIL "cem" "tern.test")) (NIL NIL "list" NIL) NIL "<p@x>" "<c@x>")';
const STRUCTURE =
  '((("text" "plain" ("charset" "utf-8") NIL NIL "quoted-printable" 220 7 NIL NIL NIL NIL)("text" "html" ("charset" "utf-8") NIL NIL "base64" 3000 40 NIL NIL NIL NIL) "alternative" ("boundary" "b1") NIL NIL NIL)' +
  '("application" "pdf" ("name" "Angebot.pdf") NIL NIL "base64" 7800 NIL ("attachment" ("filename" "Angebot.pdf")) NIL NIL) "mixed" ("boundary" "b0") NIL NIL NIL)';

describe('the FETCH response reader reads what imapflow reads', () => {
  const same = [
    ['the mirror\'s metadata items with literals', wire(`* 12 FETCH (UID 120 FLAGS (\\Seen $Forwarded \\*) INTERNALDATE "03-Nov-2026 09:15:02 +0100" RFC822.SIZE 10240 ENVELOPE ${ENVELOPE} BODYSTRUCTURE ${STRUCTURE} MODSEQ (77) BODY[HEADER.FIELDS (REFERENCES)] `, Buffer.from('References: <a@x>\r\n\r\n'), ' BODY[1]<0> ', Buffer.from('Hall\xf6 \r\n', 'latin1'), ')')],
    ['an empty literal, an empty section, a partial with length, lower-case words', wire('* 3 fetch (uid 5 body[] ', Buffer.alloc(0), ' BODY[2.1]<1024.512> NIL FLAGS ())')],
    ['8-bit text in atoms and strings, an escaped quote at the end of a string', wire('* 4 FETCH (UID 6 X-LABEL Grüße ENVELOPE (NIL "Ünïcødé \\"" NIL NIL NIL NIL NIL NIL NIL NIL))')],
  ] as const;

  for (const [name, response] of same) {
    test(name, async () => {
      const ours = parseFetchResponse(response.payload, response.literals);
      expect(ours).not.toBeNull();
      expect(ours).toEqual(await imapflowReads(response));
    });
  }

  test('invalid UTF-8 inside a string: replacement characters, as imapflow decoding the whole line gives', async () => {
    const response = { payload: Buffer.concat([Buffer.from('* 5 FETCH (UID 7 ENVELOPE (NIL "a'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('b" NIL NIL NIL NIL NIL NIL NIL NIL NIL))')]), literals: [] };
    const ours = parseFetchResponse(response.payload, response.literals);
    expect(ours).not.toBeNull();
    expect(ours).toEqual(await imapflowReads(response));
  });

  test('what it leaves to imapflow: sequence sets, literal8, run-together flags, deep nesting, syntax errors', async () => {
    const others = [
      wire('* 1 FETCH (UID 1:5)'),
      wire('* 1 FETCH (UID 1 BINARY[1] ~', Buffer.from('abc'), ')'),
      wire('* 1 FETCH (UID 1 FLAGS (\\Seen\\Flagged))'),
      wire(`* 1 FETCH (UID 1 X ${'('.repeat(30)}${')'.repeat(30)})`),
      wire('* 1 FETCH (UID 1 FLAGS (\\Seen)'),
      wire('* 1 FETCH (UID 1 BODY[1]<01> "x")'),
      wire('* 1 FETCH (UID 1 X a]b)'),
      wire('* 1 EXISTS'),
      wire('* 1 FETCH (UID 1) trailing'),
    ];
    for (const response of others) {
      expect(parseFetchResponse(response.payload, response.literals), response.payload.toString()).toBeNull();
    }
    // A marker without its literal, or a literal without its marker: the line and the stream disagree.
    const short = wire('* 1 FETCH (UID 1 BODY[1] ', Buffer.from('x'), ')');
    expect(parseFetchResponse(short.payload, [])).toBeNull();
    expect(parseFetchResponse(Buffer.from('* 1 FETCH (UID 1)'), [Buffer.from('x')])).toBeNull();
  });
});
