/**
 * The words of a paragraph worth checking, by offsets (pure: the composer maps the offsets
 * back to DOM ranges, spell-paragraphs.ts). What is skipped, and why:
 *   - web addresses, mail addresses, paths, file names and code-like runs (`a@b.c`,
 *     `https://…`, `www.…`, `x/y`, `report.pdf`, `snake_case`): a dictionary knows none, and
 *     marking them would bury the real slips;
 *   - a run with a digit (`2nd`, `A4`, `v1.2`);
 *   - words in capitals (`NASA`, `IMAP`), and single letters;
 *   - words longer than 40 letters (no dictionary word, and nspell's suggest is slow on them).
 * A hyphenated compound is checked part by part ("well-known"); the typographic apostrophe
 * is checked as the plain one (the dictionaries spell "don't").
 */
import type { SpellToken } from '../../shared/spelling';

const MAX_WORD = 40;
/** A whitespace-separated run that is an address, a path, a name of a file or code. */
const SKIPPED_RUN = /[@/\\_=<>{}[\]|~#$%^*+]|:\/\/|^(?:www\.|mailto:)|[\p{L}\p{N}]\.[\p{L}\p{N}]|\p{N}/u;
/** A word inside a run: letters and marks, with apostrophes inside. */
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;
const CAPITALS = /^[\p{Lu}\p{M}'’]+$/u;

/** The words of `text` to check, in order. */
export function spellTokens(text: string): SpellToken[] {
  const tokens: SpellToken[] = [];
  for (const run of text.matchAll(/\S+/g)) {
    const runText = run[0];
    if (SKIPPED_RUN.test(runText)) continue;
    const runStart = run.index ?? 0;
    for (const match of runText.matchAll(WORD)) {
      const raw = match[0];
      if (raw.length < 2 || raw.length > MAX_WORD || CAPITALS.test(raw)) continue;
      const start = runStart + (match.index ?? 0);
      tokens.push({ word: raw.replace(/’/g, "'"), start, end: start + raw.length });
    }
  }
  return tokens;
}
