import { expect, test } from 'vitest';
import { linkify, quoteDepth } from '../../../../src-ui/mail-html/linkify';

test('finds web and mail addresses and leaves the rest as text', () => {
  expect(linkify('See https://example.com/a?b=1, or www.example.org. Mail ann@example.com!')).toEqual([
    { kind: 'text', text: 'See ' },
    { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
    { kind: 'text', text: ', or ' },
    { kind: 'link', text: 'www.example.org', href: 'https://www.example.org' },
    { kind: 'text', text: '. Mail ' },
    { kind: 'link', text: 'ann@example.com', href: 'mailto:ann@example.com' },
    { kind: 'text', text: '!' },
  ]);
});

test('keeps balanced brackets, drops a closing one that belongs to the sentence', () => {
  expect(linkify('(https://en.wikipedia.org/wiki/Tern_(bird))')[1]).toEqual({ kind: 'link', text: 'https://en.wikipedia.org/wiki/Tern_(bird)', href: 'https://en.wikipedia.org/wiki/Tern_(bird)' });
});

test('never turns javascript: or markup into links', () => {
  expect(linkify('javascript:alert(1) <b>x</b>')).toEqual([{ kind: 'text', text: 'javascript:alert(1) <b>x</b>' }]);
});

test('quoteDepth', () => {
  expect(quoteDepth('> > hi')).toBe(2);
  expect(quoteDepth('>>hi')).toBe(2);
  expect(quoteDepth('hi > there')).toBe(0);
});
