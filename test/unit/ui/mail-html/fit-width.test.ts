// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { breakLongRuns, fitImagesToWidth } from '../../../../src-ui/mail-html/fit-width';
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

test('a blocked remote image of known size is a transparent picture of its shape; a missing inline one a box that shrinks with the pane', () => {
  const doc = parse(
    '<table width="100%"><tr><td><img id="blocked" data-tern-blocked-src="https://x.example/header.png" width="600" height="120" alt="Header">' +
      '<img id="missing" width="600" height="120" alt="Logo"><img id="pixel-only" data-tern-blocked-src="https://x.example/p.gif" width="600" alt=""></td></tr></table>',
  );
  fitImagesToWidth(doc);
  const blocked = doc.getElementById('blocked');
  expect(blocked?.getAttribute('src')).toMatch(/^data:image\/gif;base64,/);
  expect(blocked?.getAttribute('style')).toBe('height:auto;aspect-ratio:600 / 120');
  expect(doc.getElementById('missing')?.getAttribute('style')).toBe('width:min(100%, 600px);height:auto;aspect-ratio:600 / 120');
  expect(doc.getElementById('missing')?.hasAttribute('src')).toBe(false);
  // Without a height its shape is unknown: a 1×1 picture would make it a square, so it stays as it was.
  expect(doc.getElementById('pixel-only')?.hasAttribute('src')).toBe(false);
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

test('a long unbroken run (a tracking URL) may break anywhere; words, and the text around it, are left alone', () => {
  const url = 'https://news.example.com/track/click/aHR0cHM6Ly9leGFtcGxlLmNvbS9hcnRpY2xlcy9ob3c';
  const doc = parse(`<table><tr><td id="cell">Read the story at ${url} today</td><td id="words">Quantity Description</td></tr></table><style>.x{background:url(${url})}</style>`);
  breakLongRuns(doc);
  const cell = doc.getElementById('cell');
  expect(cell?.textContent).toBe(`Read the story at ${url} today`);
  const runs = Array.from(cell?.querySelectorAll('span') ?? []);
  expect(runs.map((run) => [run.textContent, run.getAttribute('style')])).toEqual([[url, 'overflow-wrap:anywhere']]);
  expect(doc.getElementById('words')?.innerHTML).toBe('Quantity Description');
  expect(doc.querySelector('style')?.textContent).toContain(url);
  expect(FRAME_BASE_CSS).not.toMatch(/td, th \{ overflow-wrap: anywhere/);
});
