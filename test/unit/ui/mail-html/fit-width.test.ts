// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { fitImagesToWidth } from '../../../../src-ui/mail-html/fit-width';
import { FRAME_BASE_CSS } from '../../../../src-ui/mail-html/frame-document';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

test('an image with width and height attributes keeps their shape when the frame caps its width', () => {
  const doc = parse('<img id="banner" src="a.png" width="640" height="240"><img id="spacer" src="s.gif" width="600px" height="20" style="display:block">');
  fitImagesToWidth(doc);
  expect(doc.getElementById('banner')?.getAttribute('style')).toBe('height:auto;aspect-ratio:640 / 240');
  // A stretched 1×1 spacer stays a strip: the ratio is the attributes', not the picture's.
  expect(doc.getElementById('spacer')?.getAttribute('style')).toBe('display:block;height:auto;aspect-ratio:600 / 20');
  // The cap itself is the base sheet's.
  expect(FRAME_BASE_CSS).toMatch(/img \{ max-width: 100%; \}/);
});

test('images the sender sized by style, by percentage or by one attribute are left as they are', () => {
  const doc = parse(
    '<img id="styled" width="600" height="200" style="height: 120px"><img id="ratio" width="600" height="200" style="aspect-ratio: 2"><img id="percent" width="100%" height="200"><img id="one" width="600">',
  );
  fitImagesToWidth(doc);
  expect(doc.getElementById('styled')?.getAttribute('style')).toBe('height: 120px');
  expect(doc.getElementById('ratio')?.getAttribute('style')).toBe('aspect-ratio: 2');
  expect(doc.getElementById('percent')?.hasAttribute('style')).toBe(false);
  expect(doc.getElementById('one')?.hasAttribute('style')).toBe(false);
});

test('a long token in a table cell may break, so it cannot widen the table past the frame', () => {
  expect(FRAME_BASE_CSS).toMatch(/td, th \{ overflow-wrap: anywhere; \}/);
});
