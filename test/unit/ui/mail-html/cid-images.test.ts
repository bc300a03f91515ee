// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { contentIdOf, inlineCidImages, lookupInlineImage } from '../../../../src-ui/mail-html/cid-images';

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

test('a reference with no part, or with an unsafe URL in the map, loses its src', () => {
  const doc = parse('<img id="a" src="cid:missing@x"><img id="b" src="cid:evil@x">');
  const result = inlineCidImages(doc, { 'evil@x': 'https://t.example/track.gif' });
  expect(result.missing).toEqual(['missing@x', 'evil@x']);
  expect(doc.querySelector('img[src]')).toBeNull();
});

test('content ids are matched without brackets and case-insensitively', () => {
  expect(contentIdOf('cid:<A@B>')).toBe('A@B');
  expect(contentIdOf('https://x')).toBeNull();
  expect(lookupInlineImage({ '<Part1.ABC@x>': 'blob:1' }, 'part1.abc@x')).toBe('blob:1');
});
