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

test('text without tags is cut at the bound, never inside a surrogate pair', () => {
  const html = `<p>${'😀'.repeat(MAX_SHOWN_HTML_CHARS)}</p>`;
  // 1002 would end on the high half of an emoji (index 1001): the cut moves one back.
  const bounded = boundBody(body(html), 1002);
  expect(bounded.html!.length).toBe(1001);
  expect(bounded.html!.at(-1)).not.toMatch(/[\uD800-\uDBFF]/);
});
