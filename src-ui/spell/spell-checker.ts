/**
 * What the spell worker does, apart from being a worker (so a unit test runs it in Node
 * with the real dictionaries): nspell per language, loaded on first use from the files the
 * build ships, plus the personal word list. Parsing a dictionary takes a few hundred
 * milliseconds (English) to about a second (German): it happens here, in the dedicated
 * worker, never in a tab or in the mail engine (research next-features §15).
 */
import nspell from 'nspell';
import { SPELL_SUGGESTIONS_MAX, type SpellLanguage, type SpellWorkerApi } from '../../shared/spelling';

export interface DictionaryFiles {
  readonly aff: string;
  readonly dic: string;
}

/** nspell's suggest walks edits of the word: on a long one it can take seconds, so long words get none. */
const SUGGEST_MAX_LENGTH = 24;

export function createSpellChecker(readDictionary: (language: SpellLanguage) => Promise<DictionaryFiles>): SpellWorkerApi {
  const loaded = new Map<SpellLanguage, Promise<{ spell: ReturnType<typeof nspell>; ms: number }>>();
  /** The personal words, and per language those the dictionary did not know (the ones to remove again). */
  let personal: readonly string[] = [];
  const addedTo = new Map<SpellLanguage, Set<string>>();

  const applyPersonal = (language: SpellLanguage, spell: ReturnType<typeof nspell>) => {
    const added = addedTo.get(language) ?? new Set<string>();
    addedTo.set(language, added);
    const wanted = new Set(personal);
    for (const word of added) {
      if (wanted.has(word)) continue;
      spell.remove(word);
      added.delete(word);
    }
    for (const word of wanted) {
      if (added.has(word) || spell.correct(word)) continue;
      spell.add(word);
      added.add(word);
    }
  };

  const dictionary = (language: SpellLanguage) => {
    let pending = loaded.get(language);
    if (!pending) {
      const started = performance.now();
      pending = readDictionary(language).then(({ aff, dic }) => {
        const spell = nspell(aff, dic);
        applyPersonal(language, spell);
        return { spell, ms: performance.now() - started };
      });
      // A failed download is tried again on the next call, not remembered.
      pending.catch(() => loaded.delete(language));
      loaded.set(language, pending);
    }
    return pending;
  };

  return {
    async load(language) {
      return (await dictionary(language)).ms;
    },
    async check(language, words) {
      const { spell } = await dictionary(language);
      return words.filter((word) => !spell.correct(word));
    },
    async suggest(language, word) {
      const { spell } = await dictionary(language);
      if (word.length > SUGGEST_MAX_LENGTH) return [];
      return spell.suggest(word).slice(0, SPELL_SUGGESTIONS_MAX);
    },
    async setPersonal(words) {
      personal = [...words];
      for (const [language, pending] of loaded) {
        const result = await pending.catch(() => null);
        if (result) applyPersonal(language, result.spell);
      }
    },
  };
}
