import type { MessageStructureObject } from 'imapflow';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { attachmentsOf } from '../../../../src-server/mirror/attachments';
import { snippetSourceOf } from '../../../../src-server/mirror/snippet';
import { parseMessageBody } from '../../../../src-server/reading/body-parser';

/** A BODYSTRUCTURE leaf as imapflow gives it. */
const leaf = (part: string, type: string, extra: Partial<MessageStructureObject> = {}): MessageStructureObject =>
  ({ part, type, encoding: '7bit', size: 100, parameters: { charset: 'utf-8' }, ...extra }) as MessageStructureObject;
const multi = (type: string, childNodes: MessageStructureObject[], part?: string): MessageStructureObject =>
  ({ type, childNodes, ...(part ? { part } : {}) }) as MessageStructureObject;

const parts = (structure: MessageStructureObject) => attachmentsOf(structure).map((a) => `${a.part} ${a.contentType}`);

describe('the body of a BODYSTRUCTURE (RFC 2046 / 2183)', () => {
  test('multipart/mixed: a text/plain body followed by an inline text/html part — the HTML is an attachment, the plain text the body', () => {
    const structure = multi('multipart/mixed', [leaf('1', 'text/plain'), leaf('2', 'text/html', { disposition: 'inline' })]);
    expect(snippetSourceOf(structure)).toMatchObject({ part: '1', html: false });
    expect(parts(structure)).toEqual(['2 text/html']);
  });

  test('an inline text part after the body (no disposition at all) is an attachment too', () => {
    const structure = multi('multipart/mixed', [leaf('1', 'text/plain'), leaf('2', 'image/png', { disposition: 'inline' }), leaf('3', 'text/plain')]);
    expect(snippetSourceOf(structure)).toMatchObject({ part: '1' });
    expect(parts(structure)).toEqual(['2 image/png', '3 text/plain']);
  });

  test('Content-Disposition: attachment is never the body, even first', () => {
    const structure = multi('multipart/mixed', [leaf('1', 'text/html', { disposition: 'attachment' }), leaf('2', 'text/plain')]);
    expect(snippetSourceOf(structure)).toMatchObject({ part: '2', html: false });
    expect(parts(structure)).toEqual(['1 text/html']);
  });

  test('multipart/alternative inside mixed: both alternatives are the body, the PDF after them an attachment', () => {
    const structure = multi('multipart/mixed', [
      multi('multipart/alternative', [leaf('1.1', 'text/plain'), multi('multipart/related', [leaf('1.2.1', 'text/html'), leaf('1.2.2', 'image/png', { id: '<logo>' })], '1.2')], '1'),
      leaf('2', 'application/pdf', { disposition: 'attachment', dispositionParameters: { filename: 'q3.pdf' } }),
    ]);
    expect(snippetSourceOf(structure)).toMatchObject({ part: '1.1' });
    expect(parts(structure)).toEqual(['1.2.2 image/png', '2 application/pdf']);
  });

  test('an HTML-only message and a single-part plain one', () => {
    expect(snippetSourceOf(leaf('1', 'text/html'))).toMatchObject({ part: '1', html: true });
    expect(attachmentsOf(leaf('1', 'text/plain'))).toEqual([]);
  });
});

const MIXED_PLAIN_THEN_HTML = [
  'From: Ann <ann@kite.test>', 'To: alice@tern.test', 'Subject: report', 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="B"', '',
  '--B', 'Content-Type: text/plain; charset=utf-8', '', 'The body, in plain text.', '',
  '--B', 'Content-Type: text/html; charset=utf-8', 'Content-Disposition: inline', '', '<p>An attached HTML page</p>', '',
  '--B--', '',
].join('\r\n');

describe('the body of a parsed message', () => {
  test('a text/plain body followed by an inline text/html part shows the plain body, not the attachment', async () => {
    const { body, searchText } = await parseMessageBody(Readable.from([Buffer.from(MIXED_PLAIN_THEN_HTML)]), { messageId: '1', stored: [] });
    expect(body.html).toBeNull();
    expect(body.text).toBe('The body, in plain text.\n');
    expect(searchText).toBe('The body, in plain text.');
  });

  test('multipart/alternative keeps the HTML and the text', async () => {
    const source = [
      'Subject: x', 'MIME-Version: 1.0', 'Content-Type: multipart/alternative; boundary="A"', '',
      '--A', 'Content-Type: text/plain; charset=utf-8', '', 'plain words', '',
      '--A', 'Content-Type: text/html; charset=utf-8', '', '<p>rich words</p>', '', '--A--', '',
    ].join('\r\n');
    const { body } = await parseMessageBody(Readable.from([Buffer.from(source)]), { messageId: '2', stored: [] });
    expect(body.html).toBe('<p>rich words</p>\n');
    expect(body.text).toBe('plain words\n');
  });
});
