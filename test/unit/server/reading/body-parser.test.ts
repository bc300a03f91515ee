import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { StoredAttachment } from '../../../../src-server/mirror/attachments';
import { parseMessageBody, reconcileAttachments } from '../../../../src-server/reading/body-parser';

const PNG = Buffer.alloc(3000, 7);
const PDF = Buffer.from('%PDF-1.4 pretend '.repeat(200));

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/.{76}/g, '$&\r\n');

const SOURCE = [
  'From: =?UTF-8?Q?J=C3=BCrgen?= <juergen@example.com>',
  'To: Alice <alice@tern.test>, bob@example.com',
  'Cc: carol@example.com',
  'Reply-To: replies@example.com',
  'Subject: =?UTF-8?B?R3LDvMOfZQ==?=',
  'Date: Tue, 3 Mar 2026 14:05:09 +0100',
  'Message-ID: <m1@example.com>',
  'List-Unsubscribe: <https://example.com/u?x=1>,',
  ' <mailto:unsub@example.com>',
  'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: multipart/alternative; boundary="alt"',
  '',
  '--alt',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Hallo Alice, sch=C3=B6ne Gr=C3=BC=C3=9Fe',
  '--alt',
  'Content-Type: multipart/related; boundary="rel"',
  '',
  '--rel',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Hallo <img src="cid:logo.123@example.com"></p>',
  '--rel',
  'Content-Type: image/png; name="logo.png"',
  'Content-ID: <logo.123@example.com>',
  'Content-Disposition: inline; filename="logo.png"',
  'Content-Transfer-Encoding: base64',
  '',
  b64(PNG),
  '--rel--',
  '--alt--',
  '--outer',
  'Content-Type: application/pdf; name="invoice.pdf"',
  'Content-Disposition: attachment; filename="invoice.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  b64(PDF),
  '--outer--',
  '',
].join('\r\n');

/** What the mirror stored from BODYSTRUCTURE (sizes are estimates there). */
const STORED: StoredAttachment[] = [
  { index: 0, filename: 'logo.png', size: 2999, contentType: 'image/png', contentId: 'logo.123@example.com', part: '1.2.2', encoding: 'base64' },
  { index: 1, filename: 'invoice.pdf', size: 3390, contentType: 'application/pdf', contentId: null, part: '2', encoding: 'base64' },
];

describe('message bodies', () => {
  test('html keeps its cid: links, text is decoded, attachments carry contentId and their real size', async () => {
    const { body, searchText } = await parseMessageBody(Readable.from([Buffer.from(SOURCE)]), { messageId: '7', stored: STORED });
    expect(body.messageId).toBe('7');
    expect(body.html).toContain('src="cid:logo.123@example.com"');
    expect(body.text).toBe('Hallo Alice, schöne Grüße');
    expect(body.attachments).toEqual([
      { index: 0, filename: 'logo.png', size: PNG.length, contentType: 'image/png', contentId: 'logo.123@example.com' },
      { index: 1, filename: 'invoice.pdf', size: PDF.length, contentType: 'application/pdf', contentId: null },
    ]);
    expect(searchText).toBe('Hallo Alice, schöne Grüße');
  });

  test('the headers that matter, decoded; List-Unsubscribe unfolded as sent', async () => {
    const { body } = await parseMessageBody(Readable.from([Buffer.from(SOURCE)]), { messageId: '7', stored: STORED });
    expect(body.headers).toEqual({
      from: '"Jürgen" <juergen@example.com>',
      to: '"Alice" <alice@tern.test>, bob@example.com',
      cc: 'carol@example.com',
      'reply-to': 'replies@example.com',
      date: '2026-03-03T13:05:09.000Z',
      subject: 'Grüße',
      'message-id': '<m1@example.com>',
      'list-unsubscribe': '<https://example.com/u?x=1>, <mailto:unsub@example.com>',
      'list-unsubscribe-post': 'List-Unsubscribe=One-Click',
    });
  });

  test('an HTML-only message has no text; its search words come from the HTML', async () => {
    const source = 'Subject: x\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><head><style>p{}</style></head><body><p>Big&nbsp;sale</p></body></html>\r\n';
    const { body, searchText } = await parseMessageBody(Readable.from([Buffer.from(source)]), { messageId: '1', stored: [] });
    expect(body.text).toBeNull();
    expect(body.html).toContain('<p>Big&nbsp;sale</p>');
    expect(searchText).toBe('Big sale');
  });

  test('broken mail parses to what can be read, never hangs', async () => {
    const truncated = SOURCE.slice(0, SOURCE.indexOf('invoice.pdf') + 200); // cut inside the base64 of the last part
    const { body } = await parseMessageBody(Readable.from([Buffer.from(truncated)]), { messageId: '8', stored: STORED });
    expect(body.text).toBe('Hallo Alice, schöne Grüße');
    const garbage = await parseMessageBody(Readable.from([Buffer.from('\u0000\u0001 not a message at all')]), { messageId: '9', stored: [] });
    expect(garbage.body.attachments).toEqual([]);
  });

  test('stored attachments without a parsed match keep the mirror’s estimate', () => {
    expect(reconcileAttachments(STORED, [{ contentId: null, filename: 'invoice.pdf', contentType: 'application/pdf', size: 10 }])).toEqual([
      expect.objectContaining({ index: 0, size: 2999 }),
      expect.objectContaining({ index: 1, size: 10 }),
    ]);
  });
});
