/**
 * Plain-text mail: finds web addresses and email addresses so they can be rendered as
 * links. The text itself is never turned into HTML: React renders the pieces as text
 * nodes and anchors, so nothing in a plain-text mail can become markup.
 */

export type TextPiece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'link'; readonly text: string; readonly href: string };

// A scheme URL, a www. host, or an email address.
const CANDIDATE = /\b(?:https?:\/\/[^\s<>"]+|www\.[^\s<>"]+|[\w.+-]+@[a-z\d](?:[a-z\d-]*[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]*[a-z\d])?)+)/gi;

/** Trailing punctuation is usually the sentence's, not the URL's; a closing bracket stays when it has its opener. */
function trimTrailing(url: string): string {
  let end = url.length;
  while (end > 0) {
    const char = url[end - 1] as string;
    if ('.,;:!?\'"'.includes(char)) {
      end--;
      continue;
    }
    const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{', '>': '<' };
    const opener = pairs[char];
    if (opener !== undefined) {
      const body = url.slice(0, end);
      if (body.split(opener).length - 1 < body.split(char).length - 1) {
        end--;
        continue;
      }
    }
    break;
  }
  return url.slice(0, end);
}

export function linkify(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const raw = trimTrailing(match[0]);
    const start = match.index;
    if (raw === '' || start === undefined) continue;
    let href: string;
    if (/^https?:\/\//i.test(raw)) href = raw;
    else if (/^www\./i.test(raw)) href = `https://${raw}`;
    else href = `mailto:${raw}`;
    if (start > last) pieces.push({ kind: 'text', text: text.slice(last, start) });
    pieces.push({ kind: 'link', text: raw, href });
    last = start + raw.length;
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last) });
  return pieces;
}

/** Lines of a plain-text mail, with their quote depth (`> > text` is depth 2). */
export function quoteDepth(line: string): number {
  const match = /^((?:>\s?)+)/.exec(line);
  return match ? ((match[1] ?? '').match(/>/g) ?? []).length : 0;
}
