// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { LINK_REL, linkKind, rewriteLinks } from '../../../../src-ui/mail-html/links';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

test('web links open in a new tab without opener or referrer, showing the real address', () => {
  const doc = parse('<a id="a" href="https://evil.example/login" target="_self" rel="opener">https://yourbank.example</a>');
  rewriteLinks(doc);
  const link = doc.getElementById('a');
  expect(link?.getAttribute('target')).toBe('_blank');
  expect(link?.getAttribute('rel')).toBe(LINK_REL);
  expect(link?.getAttribute('rel')).toContain('noopener');
  expect(link?.getAttribute('rel')).toContain('noreferrer');
  expect(link?.getAttribute('title')).toBe('https://evil.example/login');
});

test('mailto links get the address as title; <area> is treated like <a>', () => {
  const doc = parse('<a id="m" href="mailto:ann@example.com">write</a><map><area id="r" href="https://x.example/" shape="rect"></map>');
  rewriteLinks(doc);
  expect(doc.getElementById('m')?.getAttribute('title')).toBe('ann@example.com');
  expect(doc.getElementById('r')?.getAttribute('target')).toBe('_blank');
});

test('fragment links stay in the frame; relative and unknown links lose their href', () => {
  const doc = parse('<a id="f" href="#part2" target="_top">jump</a><a id="r" href="/settings">rel</a><a id="x" href="ftp://x.example/">ftp</a>');
  rewriteLinks(doc);
  expect(doc.getElementById('f')?.getAttribute('href')).toBe('#part2');
  expect(doc.getElementById('f')?.hasAttribute('target')).toBe(false);
  expect(doc.getElementById('r')?.hasAttribute('href')).toBe(false);
  expect(doc.getElementById('x')?.hasAttribute('href')).toBe(false);
});

test('linkKind', () => {
  expect(linkKind('HTTPS://X.EXAMPLE')).toBe('web');
  expect(linkKind('java\nscript:alert(1)')).toBe('unusable');
  expect(linkKind('tel:+123')).toBe('tel');
  expect(linkKind('#')).toBe('unusable');
});
