/**
 * The spell worker's logic on the real English and German dictionaries (read from
 * node_modules as the build ships them): unknown words, suggestions, the personal list.
 * One load per language for the file (a dictionary takes a few hundred ms to parse).
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { SPELL_SUGGESTIONS_MAX } from '../../../../shared/spelling';
import { createSpellChecker } from '../../../../src-ui/spell/spell-checker';

const reads: string[] = [];
const checker = createSpellChecker(async (language) => {
  reads.push(language);
  const file = (kind: string) => readFile(new URL(`../../../../node_modules/dictionary-${language}/index.${kind}`, import.meta.url), 'utf8');
  return { aff: await file('aff'), dic: await file('dic') };
});

test('English: the words it does not know, and suggestions for one, best first and at most six', async () => {
  expect(await checker.check('en', ['I', 'recieve', 'the', 'kites', "don't", 'Zorblaxi'])).toEqual(['recieve', 'Zorblaxi']);
  const suggestions = await checker.suggest('en', 'recieve');
  expect(suggestions[0]).toBe('receive');
  expect(suggestions.length).toBeLessThanOrEqual(SPELL_SUGGESTIONS_MAX);
  // A very long word gets none rather than seconds of search.
  expect(await checker.suggest('en', 'x'.repeat(30))).toEqual([]);
});

test('German is its own dictionary, loaded on first use only', async () => {
  expect(reads).toEqual(['en']);
  expect(await checker.check('de', ['Die', 'Straße', 'ist', 'schön', 'Strasse', 'recieve'])).toEqual(['Strasse', 'recieve']);
  expect(reads).toEqual(['en', 'de']);
  expect(await checker.load('de')).toBeGreaterThan(0);
  expect(reads).toEqual(['en', 'de']);
});

test('the personal list: its words are known in every language; a word removed from it is unknown again, a dictionary word stays known', async () => {
  await checker.setPersonal(['Zorblaxi', 'kites']);
  expect(await checker.check('en', ['Zorblaxi', 'kites'])).toEqual([]);
  expect(await checker.check('de', ['Zorblaxi'])).toEqual([]);
  await checker.setPersonal([]);
  expect(await checker.check('en', ['Zorblaxi', 'kites'])).toEqual(['Zorblaxi']);
  expect(await checker.check('de', ['Zorblaxi'])).toEqual(['Zorblaxi']);
});
