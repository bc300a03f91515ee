import { expect, test } from 'vitest';
import { DEFAULT_PREFERENCES, preferencePatchSchema, readPreferenceValues } from '../../../shared/preferences';
import { SPELL_WORDS_MAX, spellLanguageFor, withSpellWord } from '../../../shared/spelling';

test('a word for the personal list: letters of any script with an inner apostrophe or hyphen; added once, at the end', () => {
  expect(withSpellWord([], 'Zorblaxi')).toEqual(['Zorblaxi']);
  expect(withSpellWord(['Tern'], 'Straße')).toEqual(['Tern', 'Straße']);
  expect(withSpellWord([], "O'Neill")).toEqual(["O'Neill"]);
  expect(withSpellWord([], 'Müller-Lüdenscheidt')).toEqual(['Müller-Lüdenscheidt']);
  expect(withSpellWord(['Tern'], 'Tern')).toEqual(['Tern']);
  // Composed and decomposed ü are one word.
  expect(withSpellWord(['Mu\u0308ller'.normalize('NFC')], 'Mu\u0308ller')).toEqual(['Müller']);
  for (const bad of ['', 'two words', 'v2', 'end.', '-dash', 'x'.repeat(65), 'a@b']) expect(withSpellWord([], bad)).toBeNull();
});

test('the list is capped: a full list refuses a new word but still holds its own', () => {
  const full = Array.from({ length: SPELL_WORDS_MAX }, (_, index) => `word${String.fromCharCode(97 + (index % 26))}${'x'.repeat(Math.floor(index / 26))}`.replace(/\d/g, ''));
  expect(new Set(full).size).toBe(SPELL_WORDS_MAX);
  expect(withSpellWord(full, 'another')).toBeNull();
  expect(withSpellWord(full, full[3]!)).toHaveLength(SPELL_WORDS_MAX);
});

test('the preferences: spellWords and spellLanguage are validated when written, forgiving when read', () => {
  expect(DEFAULT_PREFERENCES.spellWords).toEqual([]);
  expect(DEFAULT_PREFERENCES.spellLanguage).toBe('auto');
  expect(preferencePatchSchema.safeParse({ spellWords: ['Zorblaxi', 'Straße'] }).success).toBe(true);
  expect(preferencePatchSchema.safeParse({ spellLanguage: 'de' }).success).toBe(true);
  expect(preferencePatchSchema.safeParse({ spellLanguage: 'fr' }).success).toBe(false);
  expect(preferencePatchSchema.safeParse({ spellWords: ['two words'] }).success).toBe(false);
  expect(preferencePatchSchema.safeParse({ spellWords: ['Tern', 'Tern'] }).success).toBe(false);
  expect(preferencePatchSchema.safeParse({ spellWords: Array.from({ length: SPELL_WORDS_MAX + 1 }, () => 'x') }).success).toBe(false);
  expect(preferencePatchSchema.safeParse({ spellWords: 'Tern' }).success).toBe(false);
  // A stored list this build cannot read falls back to none; the other values stay.
  const read = readPreferenceValues({ spellWords: ['ok', 'not ok'], spellLanguage: 'de', theme: 'dark' });
  expect(read.spellWords).toEqual([]);
  expect(read.spellLanguage).toBe('de');
  expect(read.theme).toBe('dark');
});

test('the language a choice means: auto follows the UI', () => {
  expect(spellLanguageFor('auto', 'de')).toBe('de');
  expect(spellLanguageFor('auto', 'de-AT')).toBe('de');
  expect(spellLanguageFor('auto', 'en')).toBe('en');
  expect(spellLanguageFor('en', 'de')).toBe('en');
  expect(spellLanguageFor('de', 'en')).toBe('de');
});
