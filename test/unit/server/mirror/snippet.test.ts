import type { MessageStructureObject } from 'imapflow';
import { describe, expect, test } from 'vitest';
import { attachmentsOf } from '../../../../src-server/mirror/attachments';
import { htmlToText } from '../../../../src-server/mirror/html-text';
import { decodeBase64, decodeCharset, decodeQuotedPrintable } from '../../../../src-server/mirror/mime-decode';
import { EARLY_BYTES, earlySnippet, SNIPPET_LENGTH, snippetFrom, snippetSourceOf, type SnippetSource } from '../../../../src-server/mirror/snippet';

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const plain = { html: false, encoding: '7bit', charset: 'utf-8' };

describe('transfer decoding of a partial part', () => {
  test('quoted-printable: escapes, soft line breaks, and an escape cut by the partial fetch', () => {
    expect(decodeQuotedPrintable(latin1('v=C3=A9rifier les chiffres du deuxi=\r\n=C3=A8me')).toString('utf8')).toBe('vérifier les chiffres du deuxième');
    expect(decodeQuotedPrintable(latin1('caf=C3=A')).toString('latin1')).toBe('caf\u00c3');
    expect(decodeQuotedPrintable(latin1('cost = 5 =\n')).toString()).toBe('cost = 5 ');
  });

  test('base64: line breaks ignored, a cut final quantum dropped', () => {
    const encoded = Buffer.from('Grüße aus Köln, bis bald!').toString('base64');
    const wrapped = encoded.slice(0, 12) + '\r\n' + encoded.slice(12);
    expect(decodeBase64(latin1(wrapped)).toString('utf8')).toBe('Grüße aus Köln, bis bald!');
    // 10 characters: two whole quanta (6 bytes) are kept, the cut one is dropped.
    expect(decodeBase64(latin1(encoded.slice(0, 10))).toString('utf8')).toBe('Grüß');
  });

  test('charsets: legacy single-byte and Japanese, unknown labels as UTF-8, a cut character dropped', () => {
    expect(decodeCharset(Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65]), 'ISO-8859-1')).toBe('Grüße');
    expect(decodeCharset(Buffer.from([0x93, 0x80, 0x94]), 'windows-1252')).toBe('“€”');
    expect(decodeCharset(Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]), 'koi8-r')).toBe('Привет');
    expect(decodeCharset(Buffer.from([0x93, 0xfa, 0x96, 0x7b]), 'Shift_JIS')).toBe('日本');
    expect(decodeCharset(Buffer.from('plain ascii'), 'x-unknown-charset')).toBe('plain ascii');
    const cut = Buffer.from('Zoë Ødegård', 'utf8').subarray(0, -1);
    expect(decodeCharset(cut, 'utf-8')).toBe('Zoë Ødegår');
    // Decoders are shared: the cut character's first byte must not leak into the next text.
    expect(decodeCharset(Buffer.from('next'), 'utf-8')).toBe('next');
  });
});

describe('html to text', () => {
  test('head, style, script and comments vanish; entities decode; tags become spaces', () => {
    const html =
      '<!DOCTYPE html><html><head><title>T</title><style>p{color:red}</style></head><body><!-- hidden -->' +
      '<p>Hello&nbsp;Alice &amp; team,</p><p>Caf&eacute; at 5&#8201;pm &mdash; ok?</p><script>alert(1)</script></body></html>';
    expect(htmlToText(html).replace(/\s+/g, ' ').trim()).toBe('Hello Alice & team, Café at 5 pm — ok?');
  });

  test('a document cut inside a tag or a style block leaves no markup behind', () => {
    expect(htmlToText('<p>Hi Bob</p><a href="https://exa').trim()).toBe('Hi Bob');
    expect(htmlToText('<p>Hi</p><style>.x { color: red').trim()).toBe('Hi');
  });
});

describe('snippets', () => {
  test('collapsed whitespace, quoted lines left out, at most 200 characters', () => {
    const text = 'Hi Alice,\r\n\r\n  Thanks   for\tthe notes.\r\n> On Monday you wrote:\r\n> old text\r\nSee you.';
    expect(snippetFrom(Buffer.from(text), plain)).toBe('Hi Alice, Thanks for the notes. See you.');
    const long = 'word '.repeat(100);
    expect(snippetFrom(Buffer.from(long), plain).length).toBeLessThanOrEqual(SNIPPET_LENGTH);
  });

  test('QP-encoded HTML in windows-1252 becomes readable text', () => {
    const body = latin1('<html><head><meta charset=3D"windows-1252"></head><body><p>Gr=FC=DFe &amp; =93Hallo=94</p></body></html>');
    expect(snippetFrom(body, { html: true, encoding: 'quoted-printable', charset: 'windows-1252' })).toBe('Grüße & “Hallo”');
  });

  test('base64 text in ISO-2022-JP', () => {
    const bytes = Buffer.from('\x1b$BF|K\\\x1b(B', 'latin1');
    expect(snippetFrom(Buffer.from(bytes.toString('base64')), { html: false, encoding: 'base64', charset: 'iso-2022-jp' })).toBe('日本');
  });
});

const leaf = (fields: Partial<MessageStructureObject> & { type: string }): MessageStructureObject => ({ encoding: '7bit', size: 100, ...fields });

describe('which part a snippet comes from', () => {
  const mixed: MessageStructureObject = {
    type: 'multipart/mixed',
    childNodes: [
      {
        type: 'multipart/alternative',
        part: '1',
        childNodes: [
          leaf({ type: 'text/plain', part: '1.1', encoding: 'quoted-printable', parameters: { charset: 'utf-8' } }),
          leaf({ type: 'text/html', part: '1.2' }),
        ],
      },
      leaf({ type: 'application/pdf', part: '2', encoding: 'base64', size: 7800, disposition: 'attachment', dispositionParameters: { filename: 'Angebot_Müller.pdf' } }),
    ],
  };

  test('the plain half of an alternative inside mixed', () => {
    expect(snippetSourceOf(mixed)).toMatchObject({ part: '1.1', html: false, encoding: 'quoted-printable', charset: 'utf-8' });
  });

  test('a single-part HTML message is section 1; a named text attachment is not the body', () => {
    expect(snippetSourceOf(leaf({ type: 'text/html', parameters: { charset: 'utf-8' } }))).toMatchObject({ part: '1', html: true });
    const onlyAttachment = { type: 'multipart/mixed', childNodes: [leaf({ type: 'text/plain', part: '1', dispositionParameters: { filename: 'notes.txt' }, disposition: 'attachment' })] };
    expect(snippetSourceOf(onlyAttachment)).toBeNull();
  });

  test('attachments: names, decoded sizes, inline cid images, attached messages', () => {
    const related: MessageStructureObject = {
      type: 'multipart/mixed',
      childNodes: [
        {
          type: 'multipart/related',
          part: '1',
          childNodes: [leaf({ type: 'text/html', part: '1.1' }), leaf({ type: 'image/png', part: '1.2', encoding: 'base64', size: 780, id: '<logo.1@tern.test>' })],
        },
        leaf({ type: 'message/rfc822', part: '2', size: 500, envelope: { subject: 'Forwarded note' } }),
      ],
    };
    expect(attachmentsOf(mixed)).toEqual([
      { index: 0, filename: 'Angebot_Müller.pdf', size: 5700, contentType: 'application/pdf', contentId: null, part: '2', encoding: 'base64' },
    ]);
    expect(attachmentsOf(related)).toEqual([
      { index: 0, filename: 'attachment-1.png', size: 570, contentType: 'image/png', contentId: 'logo.1@tern.test', part: '1.2', encoding: 'base64' },
      { index: 1, filename: 'Forwarded note.eml', size: 500, contentType: 'message/rfc822', contentId: null, part: '2', encoding: '7bit' },
    ]);
  });
});

describe('snippets from the first bytes of section 1 (fetched with the metadata)', () => {
  const source = (fields: Partial<SnippetSource>): SnippetSource => ({ part: '1', html: false, encoding: '7bit', charset: 'utf-8', maxBytes: 1024, ...fields });
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  test('plain text: the same snippet as the part\'s own partial FETCH; another part: none', () => {
    const bytes = Buffer.from(`Hi Bob,\n> quoted\n${words(400)}`).subarray(0, EARLY_BYTES);
    expect(earlySnippet(bytes, source({}))).toBe(snippetFrom(bytes, source({})));
    expect(earlySnippet(bytes, source({ part: '1.1' }))).toBeNull();
    expect(earlySnippet(undefined, source({}))).toBeNull();
  });

  test('HTML: taken when the early bytes already hold the snippet, or the whole part; otherwise left to the 4 KB FETCH', () => {
    const html = source({ html: true, maxBytes: 4096 });
    const long = Buffer.from(`<html><body><p>${words(300)}</p></body></html>`);
    const early = long.subarray(0, EARLY_BYTES);
    expect(earlySnippet(early, html)).toBe(snippetFrom(long.subarray(0, 4096), html));
    const short = Buffer.from('<html><body><p>Short and complete.</p></body></html>');
    expect(earlySnippet(short, html)).toBe('Short and complete.');
    // A <head> that fills the early bytes: the snippet is further on.
    const heavyHead = Buffer.from(`<html><head><style>${'p{margin:0}'.repeat(200)}</style></head><body>${words(50)}</body></html>`);
    expect(earlySnippet(heavyHead.subarray(0, EARLY_BYTES), html)).toBeNull();
    // Barely more text than the snippet in full early bytes: the margin a cut could garble is missing, so not taken.
    const edge = Buffer.from(`<p>${'x'.repeat(SNIPPET_LENGTH + 4)} &amp; more ${'<b></b>'.repeat(200)}`);
    expect(earlySnippet(edge.subarray(0, EARLY_BYTES), html)).toBeNull();
  });
});

describe('the snippet cut', () => {
  test('counts characters, not UTF-16 units: emoji and other astral characters are never split', () => {
    const emoji = '😀'.repeat(SNIPPET_LENGTH + 10);
    expect(snippetFrom(Buffer.from(emoji), { html: false, encoding: '8bit', charset: 'utf-8' })).toBe('😀'.repeat(SNIPPET_LENGTH));
    const mixed = `a😀${'b'.repeat(SNIPPET_LENGTH)}`;
    expect([...snippetFrom(Buffer.from(mixed), { html: false, encoding: '8bit', charset: 'utf-8' })]).toHaveLength(SNIPPET_LENGTH);
  });
});
