import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { assemble, withoutEntityFields } from '../../../../src-server/reading/body-fetch';
import { parseMessageBody } from '../../../../src-server/reading/body-parser';

// A body fetched as its parts must parse as the whole message did: the same text, HTML and
// headers. The pieces below are what IMAP returns for BODY[HEADER], BODY[n.MIME] and BODY[n].

const crlf = (lines: string[]) => lines.join('\r\n');
const HEADER = crlf([
  'From: =?UTF-8?Q?J=C3=BCrgen?= <juergen@example.com>',
  'To: Alice <alice@tern.test>',
  'Subject: =?UTF-8?B?R3LDvMOfZQ==?=',
  'Date: Tue, 3 Mar 2026 14:05:09 +0100',
  'Message-ID: <m1@example.com>',
  'List-Unsubscribe: <https://example.com/u?x=1>,',
  ' <mailto:unsub@example.com>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed;',
  '\tboundary="outer"',
  '',
  '',
]);
/** Part 1.1: flowed plain text in windows-1252, quoted-printable. */
const TEXT_MIME = crlf(['Content-Type: text/plain; charset=windows-1252; format=flowed; delsp=yes', 'Content-Transfer-Encoding: quoted-printable', '', '']);
const TEXT = crlf(['Gr=FC=DFe aus K=F6ln, this line is soft =', 'broken and this one flows ', 'on.', '> quoted']);
/** Part 1.2.1: HTML in ISO-8859-1, base64, under a multipart/related with a cid image. */
const HTML_MIME = crlf(['Content-Type: text/html; charset=iso-8859-1', 'Content-Transfer-Encoding: base64', '', '']);
const HTML = Buffer.from('<p>Gr\xfc\xdfe <img src="cid:logo@x"></p>', 'latin1').toString('base64');
const ORIGINAL = Buffer.from(
  HEADER +
    crlf([
      '--outer',
      'Content-Type: multipart/alternative; boundary="alt"',
      '',
      '--alt',
      TEXT_MIME + TEXT,
      '--alt',
      'Content-Type: multipart/related; boundary="rel"',
      '',
      '--rel',
      HTML_MIME + HTML,
      '--rel',
      'Content-Type: image/png',
      'Content-ID: <logo@x>',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.alloc(5000, 3).toString('base64'),
      '--rel--',
      '--alt--',
      '--outer',
      'Content-Type: application/pdf; name="big.pdf"',
      'Content-Disposition: attachment; filename="big.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.alloc(20_000, 9).toString('base64'),
      '--outer--',
      '',
    ]),
  'latin1',
);

const parse = async (source: Buffer) => (await parseMessageBody(Readable.from([source]), { messageId: '1', stored: [] })).body;

describe('a body put together from its fetched parts', () => {
  test('parses to the text, HTML and headers of the whole message (charsets, transfer encodings, format=flowed)', async () => {
    const whole = await parse(ORIGINAL);
    const parts = await parse(
      assemble(Buffer.from(HEADER, 'latin1'), [
        { mime: Buffer.from(TEXT_MIME), content: Buffer.from(TEXT) },
        { mime: Buffer.from(HTML_MIME), content: Buffer.from(HTML) },
      ]),
    );
    expect(whole.text).toContain('Grüße aus Köln, this line is soft broken and this one flows');
    expect(whole.html).toContain('<p>Grüße <img src="cid:logo@x"></p>');
    expect(parts.text).toBe(whole.text);
    expect(parts.html).toBe(whole.html);
    expect(parts.headers).toEqual(whole.headers);
    expect(parts.headers.subject).toBe('Grüße');
  });

  test('one part alone (an HTML-only message) and a part without a MIME header (plain US-ASCII by default)', async () => {
    const html = await parse(assemble(Buffer.from(HEADER, 'latin1'), [{ mime: Buffer.from(HTML_MIME), content: Buffer.from(HTML) }]));
    expect(html).toMatchObject({ text: null, html: expect.stringContaining('Grüße') });
    const bare = await parse(assemble(Buffer.from(HEADER, 'latin1'), [{ mime: Buffer.alloc(0), content: Buffer.from('just text') }]));
    expect(bare).toMatchObject({ text: 'just text', html: null });
  });

  test('the message header keeps every field but the entity ones, folded lines included', () => {
    const kept = withoutEntityFields(Buffer.from(HEADER, 'latin1')).toString('latin1');
    expect(kept).toContain('List-Unsubscribe: <https://example.com/u?x=1>,\r\n <mailto:unsub@example.com>\r\n');
    expect(kept).toContain('MIME-Version: 1.0\r\n');
    expect(kept).not.toMatch(/content-type|boundary="outer"/i);
  });
});
