/** Issue point 14: the body route sends at most MAX_SHOWN_HTML_CHARS (500,000) of HTML, cut after a whole tag, and says how large the whole is. */
import { expect, test } from 'vitest';
import { MAX_SHOWN_HTML_CHARS, type MessageBody } from '../../../../shared/api/mail';
import { boundBody } from '../../../../src-server/reading/body-bounds';

const body = (html: string | null): MessageBody => ({ messageId: '7', html, text: 'plain', attachments: [], headers: {} });

test('a body within the bound is sent as it is, without `truncated`', () => {
  const small = body('<p>hello</p>');
  expect(boundBody(small)).toBe(small);
  expect(boundBody(body(null)).truncated).toBeUndefined();
  expect(boundBody(body('x'.repeat(MAX_SHOWN_HTML_CHARS))).truncated).toBeUndefined();
});

test('a 20 MB body is cut after the last whole tag within the bound, with the whole size in UTF-8 bytes', () => {
  const row = '<tr><td>Row of a very long report, é</td></tr>\n';
  const html = `<table>${row.repeat(Math.ceil((20 * 1024 * 1024) / row.length))}</table>`;
  const bounded = boundBody(body(html));
  expect(bounded.html!.length).toBeLessThanOrEqual(MAX_SHOWN_HTML_CHARS);
  expect(bounded.html!.length).toBeGreaterThan(MAX_SHOWN_HTML_CHARS - row.length);
  expect(bounded.html!.endsWith('>')).toBe(true);
  expect(html.startsWith(bounded.html!)).toBe(true);
  expect(bounded.truncated).toEqual({ htmlBytes: Buffer.byteLength(html, 'utf8') });
  expect(bounded.text).toBe('plain');
});

test('a 20 MB text (alone or beside the HTML) is cut after its last whole line, with its own size', () => {
  const line = 'A line of a very long log, ü\n';
  const text = line.repeat(Math.ceil((20 * 1024 * 1024) / line.length));
  const bounded = boundBody({ ...body('<p>short</p>'), text });
  expect(bounded.html).toBe('<p>short</p>');
  expect(bounded.text!.length).toBeLessThanOrEqual(MAX_SHOWN_HTML_CHARS);
  expect(bounded.text!.endsWith('\n')).toBe(true);
  expect(text.startsWith(bounded.text!)).toBe(true);
  expect(bounded.truncated).toEqual({ textBytes: Buffer.byteLength(text, 'utf8') });
});

test('text without tags is cut at the bound, never inside a surrogate pair', () => {
  const html = `<p>${'😀'.repeat(MAX_SHOWN_HTML_CHARS)}</p>`;
  // 1002 would end on the high half of an emoji (index 1001): the cut moves one back.
  const bounded = boundBody(body(html), 1002);
  expect(bounded.html!.length).toBe(1001);
  expect(bounded.html!.at(-1)).not.toMatch(/[\uD800-\uDBFF]/);
});
