/**
 * Checks the body's spelling with the spell worker (src-ui/spell) and marks what it does not
 * know with the misspelt highlight. It runs after typing pauses, and only sends what is new:
 * a paragraph whose text is unchanged keeps its result, a word already answered in this
 * language is not asked again. Changing the language or the personal list starts over.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { SpellLanguage, SpellToken } from '../../shared/spelling';
import { showMisspelt } from '../spell/spell-highlight';
import { paragraphRange, spellParagraphs } from '../spell/spell-paragraphs';
import { spellTokens } from '../spell/spell-tokens';
import type { RichTextEditorHandle } from './RichTextEditor';

/** The typing pause before a check. */
export const SPELL_PAUSE_MS = 400;

interface Checked {
  readonly text: string;
  readonly misspelt: readonly SpellToken[];
}

export interface SpellingOptions {
  readonly editor: RefObject<RichTextEditorHandle | null>;
  readonly language: SpellLanguage;
  readonly words: readonly string[];
  /** Bumped on every input (the editor's content, which React does not hold). */
  readonly bodyVersion: number;
  /** The owner of this composer's marks (spell-highlight.ts). */
  readonly owner: object;
}

export function useSpelling({ editor, language, words, bodyVersion, owner }: SpellingOptions): void {
  const known = useRef(new Map<string, boolean>());
  const paragraphs = useRef(new WeakMap<Element, Checked>());
  const run = useRef(0);

  // Another language or another personal list: every answer so far is void.
  const wordsKey = words.join('\n');
  useEffect(() => {
    known.current = new Map();
    paragraphs.current = new WeakMap();
  }, [language, wordsKey]);

  useEffect(() => {
    // A check that fails (offline before the dictionary was ever fetched: it is not in the
    // service worker's precache) leaves the marks as they were; the next pause tries again.
    const timer = setTimeout(() => void check().catch(() => undefined), bodyVersion === 0 ? 0 : SPELL_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [bodyVersion, language, wordsKey]);

  useEffect(() => () => showMisspelt(owner, []), [owner]);

  async function check() {
    const root = editor.current?.root();
    if (!root) return;
    const { spellWorker, syncPersonalWords } = await import('../spell/spell-client');
    const api = spellWorker();
    if (!api) return;
    const mine = ++run.current;
    await syncPersonalWords(api, words);
    const found = spellParagraphs(root);
    // The paragraphs changed since their last check, and the words in them not answered yet.
    const fresh = found.filter((paragraph) => paragraphs.current.get(paragraph.block)?.text !== paragraph.text);
    const tokensOf = new Map(fresh.map((paragraph) => [paragraph, spellTokens(paragraph.text)]));
    const ask = [...new Set([...tokensOf.values()].flat().map((token) => token.word))].filter((word) => !known.current.has(word));
    if (ask.length > 0) {
      const unknown = new Set(await api.check(language, ask));
      for (const word of ask) known.current.set(word, !unknown.has(word));
    }
    if (mine !== run.current) return; // a newer check has started; it marks the text as it is now
    for (const [paragraph, tokens] of tokensOf) {
      paragraphs.current.set(paragraph.block, { text: paragraph.text, misspelt: tokens.filter((token) => known.current.get(token.word) === false) });
    }
    const ranges: Range[] = [];
    for (const paragraph of spellParagraphs(root)) {
      const checked = paragraphs.current.get(paragraph.block);
      if (!checked || checked.text !== paragraph.text) continue; // typed into meanwhile: the next check marks it
      for (const token of checked.misspelt) {
        const range = paragraphRange(paragraph, token.start, token.end);
        if (range) ranges.push(range);
      }
    }
    showMisspelt(owner, ranges);
  }
}
