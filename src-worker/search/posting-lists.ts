/**
 * The words side of the search index (search-index.ts): a posting list per word — which
 * documents hold it, and in which fields — and the words grouped by their first two
 * letters, so a prefix looks at one bucket, not every word. A posting is
 * `doc * 16 + fields`; documents are numbered by the index, which alone knows which are alive.
 */
import type { TermField } from './search-query';
import { searchWords } from './search-query';

const SUBJECT = 1;
const FROM = 2;
const TO = 4;
const SNIPPET = 8;
/** The fields a term looks in, as posting bits. */
export const FIELD_MASK: Readonly<Record<TermField, number>> = { any: SUBJECT | FROM | TO | SNIPPET, from: FROM, to: TO, subject: SUBJECT };
const FIELD_BITS = 4;

/** The document a posting names. */
export const docOf = (posting: number): number => posting >>> FIELD_BITS;

/** One word of a query: an exact word or a prefix, within some fields. */
export interface WordTest {
  readonly lists: readonly (readonly number[])[];
  readonly mask: number;
  /** Postings to walk; 0 when no document has the word. */
  readonly cost: number;
}

function addHead(heads: Map<string, string[]>, word: string): void {
  const head = word.slice(0, 2);
  const bucket = heads.get(head);
  if (bucket) bucket.push(word);
  else heads.set(head, [word]);
}

export class PostingLists {
  private postings = new Map<string, number[]>();
  /** Words by their first two letters: a prefix looks at one bucket, not every word. */
  private heads = new Map<string, string[]>();

  /** Indexes a document's texts, in field order: subject, from, to and cc, snippet. */
  add(doc: number, texts: readonly string[]): void {
    const fields = new Map<string, number>();
    const bits = [SUBJECT, FROM, TO, SNIPPET];
    texts.forEach((text, i) => {
      for (const word of searchWords(text)) fields.set(word, (fields.get(word) ?? 0) | bits[i]!);
    });
    for (const [word, mask] of fields) {
      let list = this.postings.get(word);
      if (!list) {
        list = [];
        this.postings.set(word, list);
        addHead(this.heads, word);
      }
      list.push(doc * (1 << FIELD_BITS) + mask);
    }
  }

  wordTest(word: string, prefix: boolean, mask: number): WordTest {
    if (!prefix) {
      const list = this.postings.get(word);
      return { lists: list ? [list] : [], mask, cost: list?.length ?? 0 };
    }
    const lists: number[][] = [];
    let cost = 0;
    const take = (token: string) => {
      const list = this.postings.get(token)!;
      lists.push(list);
      cost += list.length;
    };
    if (word.length >= 2) {
      for (const token of this.heads.get(word.slice(0, 2)) ?? []) if (token.startsWith(word)) take(token);
    } else {
      for (const [head, tokens] of this.heads) if (head.startsWith(word)) tokens.forEach(take);
    }
    return { lists, mask, cost };
  }

  /**
   * Marks the documents (of `docs` numbered) holding every word: `stage[doc]` counts the
   * tests a document passed in a row, so after the last test the matches are those at
   * `tests.length`. Cheapest test first; a document missing from one list never advances again.
   */
  intersect(tests: readonly WordTest[], docs: number): Uint8Array {
    const stage = new Uint8Array(docs);
    tests.forEach((test, step) => {
      for (const list of test.lists) {
        for (const posting of list) {
          if (!(posting & test.mask)) continue;
          const doc = posting >>> FIELD_BITS;
          if (stage[doc] === step) stage[doc] = step + 1;
        }
      }
    });
    return stage;
  }

  /** Drops the postings of dead documents (after many words changed). */
  compact(alive: (doc: number) => boolean): void {
    for (const [word, list] of this.postings) {
      const kept = list.filter((posting) => alive(posting >>> FIELD_BITS));
      if (kept.length > 0) this.postings.set(word, kept);
      else this.postings.delete(word);
    }
    const heads = new Map<string, string[]>();
    for (const word of this.postings.keys()) addHead(heads, word);
    this.heads = heads;
  }
}
