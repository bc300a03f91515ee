/** The personal word list's schema (the `spellWords` preference; shared/spelling.ts has the rules without zod). */
import * as z from 'zod';
import { SPELL_WORD_MAX_LENGTH, SPELL_WORD_PATTERN, SPELL_WORDS_MAX } from './spelling';

export const spellWordSchema = z
  .string()
  .max(SPELL_WORD_MAX_LENGTH, `A word has at most ${SPELL_WORD_MAX_LENGTH} characters`)
  .regex(SPELL_WORD_PATTERN, 'A word is letters only (an apostrophe or hyphen inside it allowed)');

export const spellWordsSchema = z
  .array(spellWordSchema)
  .max(SPELL_WORDS_MAX, `At most ${SPELL_WORDS_MAX} words`)
  .refine((words) => new Set(words).size === words.length, 'Each word once');
