/**
 * Plain-text mail hard-wrapped by its sender's program (at 72-78 columns, without
 * format=flowed) reads ragged in a pane narrower than that: each line wraps once more on
 * its own, leaving a long line and a stub. This joins back only the line breaks that the
 * wrapping itself made, and leaves every other line as the sender wrote it.
 *
 * (format=flowed mail, RFC 3676, needs none of this: its soft breaks are undone by the
 * gateway's parser, so the text arrives as whole paragraphs.)
 *
 * A break is taken for the wrapper's when, and only when:
 *   - the text is hard-wrapped at all: its longest prose line of at most MAX_WRAP_COLUMN
 *     characters (at that quote depth) is at least MIN_WRAP_COLUMN long (short lines
 *     are meant: poems, addresses, signatures);
 *   - the next line's first word would not have fitted on the line (the wrapper's
 *     signature: it breaks only when the next word is too long for what is left);
 *   - both lines are prose at the same quote depth: not indented (code), except a list
 *     item's continuation indented to the item's text, no tab or run of spaces (tables,
 *     aligned columns), not longer than the
 *     wrap column (a long URL or command line was never wrapped), and the next line does
 *     not start a list item, a signature ("-- ") or a new quote depth.
 */
import { quoteDepth } from './linkify';

/** Lines of at most this many characters count towards the wrap column; longer ones were not wrapped. */
const MAX_WRAP_COLUMN = 80;
/** Below this, the text is not taken as hard-wrapped at all. */
const MIN_WRAP_COLUMN = 55;

const QUOTE_PREFIX = /^(?:>\s?)+/;
const LIST_ITEM = /^(?:[-*+•–]\s|\d{1,3}[.)]\s|[a-z][.)]\s)/i;
const ALIGNED = /\t| {2,}\S/;

/** The line without its quote markers; `prefix` is what was taken off. */
function splitQuote(line: string): { prefix: string; body: string } {
  const prefix = QUOTE_PREFIX.exec(line)?.[0] ?? '';
  return { prefix, body: line.slice(prefix.length) };
}

function isProse(body: string): boolean {
  return body.trim() !== '' && !/^\s/.test(body) && !ALIGNED.test(body.trimEnd()) && body.trimEnd() !== '--';
}

/**
 * The column each quote depth was wrapped at (0: not hard-wrapped): the longest prose
 * line of several words and at most MAX_WRAP_COLUMN characters, quote markers included. Per depth, because
 * a reply's program re-wraps the quote with its markers at another width than the reply.
 */
export function wrapColumns(lines: readonly string[]): Map<number, number> {
  const columns = new Map<number, number>();
  for (const line of lines) {
    const { prefix, body } = splitQuote(line);
    // A line without a space (a long URL) was not broken at a word: it says nothing of the column.
    if (!isProse(body) || !body.trim().includes(' ')) continue;
    const depth = quoteDepth(prefix);
    const length = line.trimEnd().length;
    if (length <= MAX_WRAP_COLUMN && length > (columns.get(depth) ?? 0)) columns.set(depth, length);
  }
  for (const [depth, column] of columns) if (column < MIN_WRAP_COLUMN) columns.set(depth, 0);
  return columns;
}

/**
 * A line's body without the hanging indent of the list item it continues ("- item" then
 * "  more of it": the indent is the marker's width), or null when indented otherwise.
 */
function unindented(body: string, hanging: number): string | null {
  const indent = /^ */.exec(body)?.[0].length ?? 0;
  if (indent === 0) return body;
  return hanging > 0 && indent === hanging ? body.slice(indent) : null;
}

/** Whether the break after `line` (before `next`) was made by the sender's wrapper; `hanging`: the list item's text column, or 0. */
function isWrapperBreak(line: string, next: string, columns: ReadonlyMap<number, number>, hanging: number): boolean {
  const current = splitQuote(line);
  const following = splitQuote(next);
  const depth = quoteDepth(current.prefix);
  if (depth !== quoteDepth(following.prefix)) return false;
  const column = columns.get(depth) ?? 0;
  if (column === 0) return false;
  const currentBody = unindented(current.body, hanging);
  const followingBody = unindented(following.body, hanging);
  if (currentBody === null || followingBody === null || !isProse(currentBody) || !isProse(followingBody)) return false;
  if (LIST_ITEM.test(followingBody) || /^-- ?$/.test(followingBody)) return false;
  const length = line.trimEnd().length;
  if (length > column || next.trimEnd().length > column) return false;
  const firstWord = followingBody.split(/\s/, 1)[0] ?? '';
  return length + 1 + firstWord.length > column;
}

/** The text with the sender's wrapping undone (see above); everything else kept as it was. */
export function unwrapHardWraps(text: string): string {
  const lines = text.split('\n');
  const columns = wrapColumns(lines);
  if (![...columns.values()].some((column) => column > 0)) return text;
  const out: string[] = [];
  // The text column of the list item the current logical line is (its continuations may be indented to it).
  let hanging = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const previous = lines[i - 1];
    if (previous !== undefined && out.length > 0 && isWrapperBreak(previous, line, columns, hanging)) {
      // The continuation loses its quote markers and indent; the joined line keeps the first line's.
      out[out.length - 1] = `${(out.at(-1) as string).trimEnd()} ${splitQuote(line).body.trimStart()}`;
    } else {
      out.push(line);
      hanging = LIST_ITEM.exec(splitQuote(line).body)?.[0].length ?? 0;
    }
  }
  return out.join('\n');
}
