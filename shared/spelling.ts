/**
 * The spell checker's contracts (issue 14 point 5): the dictionaries Tern ships, the
 * personal word list that roams with the preferences, and the calls of the spell worker
 * (src-ui/spell/spell-worker.ts, a dedicated Worker: never the mail engine, never the page).
 * Without zod: the spell worker imports it (the preference's schema is in spell-words.ts).
 */
/** The Hunspell dictionaries the build ships (dictionary-en, dictionary-de). */
export const SPELL_LANGUAGES = ['en', 'de'] as const;
export type SpellLanguage = (typeof SPELL_LANGUAGES)[number];
/** The preference: `auto` checks in the UI's language. */
export const SPELL_LANGUAGE_CHOICES = ['auto', ...SPELL_LANGUAGES] as const;
export type SpellLanguageChoice = (typeof SPELL_LANGUAGE_CHOICES)[number];

/** The language a choice means, given the UI's locale. */
export function spellLanguageFor(choice: SpellLanguageChoice, uiLocale: string): SpellLanguage {
  if (choice !== 'auto') return choice;
  return uiLocale.toLowerCase().startsWith('de') ? 'de' : 'en';
}

/** The personal word list: every device loads it into the worker, so it stays small. */
export const SPELL_WORDS_MAX = 1000;
export const SPELL_WORD_MAX_LENGTH = 64;

/** One word a person added: letters (any script), marks, inner apostrophes and hyphens; no spaces, digits or punctuation around it. */
export const SPELL_WORD_PATTERN = /^[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*$/u;
export const isSpellWord = (word: string) => word.length <= SPELL_WORD_MAX_LENGTH && SPELL_WORD_PATTERN.test(word);

/** The list with `word` added (once, at the end), or null when it is full or the word is not one. */
export function withSpellWord(words: readonly string[], word: string): string[] | null {
  const normal = word.normalize('NFC');
  if (!isSpellWord(normal)) return null;
  if (words.includes(normal)) return [...words];
  if (words.length >= SPELL_WORDS_MAX) return null;
  return [...words, normal];
}

/** A word of the text to check, by UTF-16 offsets in its paragraph. */
export interface SpellToken {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

/** Suggestions shown per word. */
export const SPELL_SUGGESTIONS_MAX = 6;

/** The spell worker's calls (comlink). Each takes its language: the worker loads that dictionary on first use. */
export interface SpellWorkerApi {
  /** Loads the language's dictionary (a no-op once loaded); resolves with the milliseconds the load took in the worker. */
  load(language: SpellLanguage): Promise<number>;
  /** The words of `words` the dictionary and the personal list do not know. */
  check(language: SpellLanguage, words: readonly string[]): Promise<string[]>;
  /** Up to SPELL_SUGGESTIONS_MAX corrections, best first. */
  suggest(language: SpellLanguage, word: string): Promise<string[]>;
  /** The personal word list (replaces the previous one; words removed from it are unknown again). */
  setPersonal(words: readonly string[]): Promise<void>;
}
