import { expect, test } from 'vitest';
import { spellTokens } from '../../../../src-ui/spell/spell-tokens';

const words = (text: string) => spellTokens(text).map((token) => token.word);

test('words with their offsets in the paragraph', () => {
  const text = 'I recieve the kites';
  const tokens = spellTokens(text);
  expect(tokens.map((token) => token.word)).toEqual(['recieve', 'the', 'kites']);
  for (const token of tokens) expect(text.slice(token.start, token.end)).toBe(token.word);
});

test('punctuation around a word is not part of it; apostrophes inside are, the typographic one checked as the plain one', () => {
  expect(words('Hello, world! (quoted) "yes"?')).toEqual(['Hello', 'world', 'quoted', 'yes']);
  const tokens = spellTokens('We don’t know.');
  expect(tokens[1]).toEqual({ word: "don't", start: 3, end: 8 });
  expect(words("the kites' lines")).toEqual(['the', 'kites', 'lines']);
});

test('a hyphenated compound is checked part by part; other scripts are words too', () => {
  expect(words('a well-known Straße')).toEqual(['well', 'known', 'Straße']);
  expect(words('Привет мир')).toEqual(['Привет', 'мир']);
});

test('skipped: web and mail addresses, paths, file names, code, digits, capitals, single letters', () => {
  expect(words('See https://exampel.test/pagez or www.exampel.test now')).toEqual(['See', 'or', 'now']);
  expect(words('mail bobb@exampel.test or mailto:bobb@x.test today')).toEqual(['mail', 'or', 'today']);
  expect(words('open C:\\Users\\bobb or ~/kitez/notes please')).toEqual(['open', 'or', 'please']);
  expect(words('the reportt.pdf and snake_casee and a=b')).toEqual(['the', 'and', 'and']);
  expect(words('on the 2nd at 10am, v1.2 and A4 paper')).toEqual(['on', 'the', 'at', 'and', 'paper']);
  expect(words('NASA and IMAP are fine, I think')).toEqual(['and', 'are', 'fine', 'think']);
  expect(words('x'.repeat(41) + ' ok')).toEqual(['ok']);
  expect(spellTokens('')).toEqual([]);
  expect(spellTokens('   \n ')).toEqual([]);
});
