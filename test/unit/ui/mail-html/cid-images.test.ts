// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { contentIdOf, inlineCidImages, lookupInlineImage, MISSING_CID_ATTR } from '../../../../src-ui/mail-html/cid-images';
import { FRAME_BASE_CSS } from '../../../../src-ui/mail-html/frame-document';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

test('maps cid: images to the inline parts the worker handed over', () => {
  const doc = parse('<img id="a" src="cid:logo@mail.example"><img id="b" src="CID:%3Cchart%40x%3E"><td id="c" background="cid:bg@x"></td>');
  const result = inlineCidImages(doc, {
    'logo@mail.example': 'blob:http://app/1',
    '<chart@x>': 'data:image/png;base64,AA==',
    'bg@x': 'blob:http://app/2',
  });
  expect(result.missing).toEqual([]);
  expect(doc.getElementById('a')?.getAttribute('src')).toBe('blob:http://app/1');
  expect(doc.getElementById('b')?.getAttribute('src')).toBe('data:image/png;base64,AA==');
});

test('an image with no part, or with an unsafe URL in the map, becomes the neutral placeholder (a transparent picture, no broken-image icon)', () => {
  const doc = parse('<img id="a" src="cid:missing@x" alt="Logo"><img id="b" src="cid:evil@x"><table><tr><td id="c" background="cid:gone@x"></td></tr></table>');
  const result = inlineCidImages(doc, { 'evil@x': 'https://t.example/track.gif' });
  expect(result.missing).toEqual(['missing@x', 'evil@x', 'gone@x']);
  for (const id of ['a', 'b']) {
    const image = doc.getElementById(id)!;
    expect(image.getAttribute('src')).toMatch(/^data:image\/gif;base64,/);
    expect(image.hasAttribute(MISSING_CID_ATTR)).toBe(true);
  }
  expect(doc.getElementById('c')?.hasAttribute('background')).toBe(false);
  // The frame's base sheet draws the placeholder on the marked picture.
  expect(FRAME_BASE_CSS).toContain(`img[${MISSING_CID_ATTR}]`);
});

test('content ids are matched without brackets and case-insensitively', () => {
  expect(contentIdOf('cid:<A@B>')).toBe('A@B');
  expect(contentIdOf('https://x')).toBeNull();
  expect(lookupInlineImage({ '<Part1.ABC@x>': 'blob:1' }, 'part1.abc@x')).toBe('blob:1');
  expect(lookupInlineImage({ 'logo@x': 'blob:2' }, '<LOGO@X>')).toBe('blob:2');
  expect(contentIdOf('cid: < Spaced@X > ')).toBe('Spaced@X');
});
