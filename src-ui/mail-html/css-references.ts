/**
 * Finds the places in CSS text that make a browser fetch something: `url(…)`, the
 * string arguments of `image-set()` and its cousins, and `@import`. A small tokenizer
 * after CSS Syntax §4, not a regular expression, because CSS escapes make `\75 rl(x)`
 * mean `url(x)` and strings and comments may hold look-alikes that fetch nothing.
 *
 * Editing CSS text is not the string-editing of HTML that STYLE item 12 forbids: the
 * result goes back through the DOM (`setAttribute('style')`, `textContent`), and the
 * frame builder drops any `<style>` whose text could end the element (see frame-document.ts).
 */

/** One fetching reference: `[start, end)` in the text, and the URLs it names. */
export interface CssReference {
  readonly kind: 'url' | 'image-function' | 'import';
  readonly start: number;
  readonly end: number;
  readonly urls: readonly string[];
}

/** Functions whose string arguments are image URLs (no `url()` needed). */
const IMAGE_FUNCTIONS = new Set(['image-set', '-webkit-image-set', 'image', 'cross-fade', '-webkit-cross-fade', 'src']);

const isHexDigit = (char: string) => /^[0-9a-f]$/i.test(char);
const isWhitespace = (char: string | undefined) => char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f';
const isNameStart = (char: string) => /^[a-z_]$/i.test(char) || char.charCodeAt(0) >= 0x80;
const isNameChar = (char: string) => isNameStart(char) || /^[0-9-]$/.test(char);

/** Reads one escape at `i` (which points at the backslash); returns the character and the index after it. */
function readEscape(css: string, i: number): { char: string; next: number } {
  let j = i + 1;
  if (j >= css.length) return { char: '\uFFFD', next: j };
  if (!isHexDigit(css[j] as string)) return { char: css[j] as string, next: j + 1 };
  let hex = '';
  while (j < css.length && hex.length < 6 && isHexDigit(css[j] as string)) hex += css[j++];
  if (isWhitespace(css[j])) j += css[j] === '\r' && css[j + 1] === '\n' ? 2 : 1;
  const code = Number.parseInt(hex, 16);
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return { char: valid ? String.fromCodePoint(code) : '\uFFFD', next: j };
}

/** Whether an escape starts at `i` (a backslash not followed by a newline). */
const startsEscape = (css: string, i: number) => css[i] === '\\' && css[i + 1] !== '\n' && css[i + 1] !== undefined;

/** Reads an identifier starting at `i`; returns its decoded value and the index after it. */
function readName(css: string, i: number): { value: string; next: number } {
  let value = '';
  let j = i;
  while (j < css.length) {
    const char = css[j] as string;
    if (startsEscape(css, j)) {
      const escape = readEscape(css, j);
      value += escape.char;
      j = escape.next;
    } else if (isNameChar(char)) {
      value += char;
      j++;
    } else break;
  }
  return { value, next: j };
}

/** Whether an identifier starts at `i` (CSS Syntax "would start an identifier"). */
function startsName(css: string, i: number): boolean {
  const first = css[i];
  if (first === undefined) return false;
  if (first === '-') {
    const second = css[i + 1];
    return second !== undefined && (isNameStart(second) || second === '-' || startsEscape(css, i + 1));
  }
  return isNameStart(first) || startsEscape(css, i);
}

/** Reads a quoted string at `i` (pointing at the quote); returns its decoded value and the index after it. */
function readString(css: string, i: number): { value: string; next: number; closed?: true } {
  const quote = css[i];
  let value = '';
  let j = i + 1;
  while (j < css.length) {
    const char = css[j] as string;
    if (char === quote) return { value, next: j + 1, closed: true };
    if (char === '\n') return { value, next: j }; // a bad string ends at the newline
    if (char === '\\') {
      if (css[j + 1] === '\n') {
        j += 2;
        continue;
      }
      const escape = readEscape(css, j);
      value += escape.char;
      j = escape.next;
      continue;
    }
    value += char;
    j++;
  }
  return { value, next: j };
}

const skipComment = (css: string, i: number) => {
  const end = css.indexOf('*/', i + 2);
  return end < 0 ? css.length : end + 2;
};

/** Index just after the `)` that closes the block opened before `i`, skipping strings, comments and nesting. */
function skipToClose(css: string, i: number): number {
  let depth = 1;
  let j = i;
  while (j < css.length) {
    const char = css[j] as string;
    if (char === '/' && css[j + 1] === '*') j = skipComment(css, j);
    else if (char === '"' || char === "'") j = readString(css, j).next;
    else if (char === '\\') j = readEscape(css, j).next;
    else {
      if (char === '(') depth++;
      else if (char === ')' && --depth === 0) return j + 1;
      j++;
    }
  }
  return css.length;
}

/** Reads the rest of `url(` starting after the parenthesis: a quoted or an unquoted URL. */
function readUrlBody(css: string, i: number): { url: string; next: number } {
  let j = i;
  while (isWhitespace(css[j])) j++;
  if (css[j] === '"' || css[j] === "'") {
    const string = readString(css, j);
    return { url: string.value, next: skipToClose(css, string.next) };
  }
  let url = '';
  while (j < css.length && css[j] !== ')') {
    if (css[j] === '\\') {
      const escape = readEscape(css, j);
      url += escape.char;
      j = escape.next;
    } else url += css[j++];
  }
  return { url: url.trim(), next: Math.min(j + 1, css.length) };
}

/** Every fetching reference in a stylesheet or a style attribute, in text order. */
export function findCssReferences(css: string): CssReference[] {
  const found: CssReference[] = [];
  let i = 0;
  while (i < css.length) {
    const char = css[i] as string;
    if (char === '/' && css[i + 1] === '*') {
      i = skipComment(css, i);
    } else if (char === '"' || char === "'") {
      i = readString(css, i).next;
    } else if (char === '@' && startsName(css, i + 1)) {
      const name = readName(css, i + 1);
      if (name.value.toLowerCase() === 'import') {
        const end = endOfAtRule(css, name.next);
        found.push({ kind: 'import', start: i, end, urls: stringsAndUrlsIn(css.slice(name.next, end)) });
        i = end;
      } else i = name.next;
    } else if (startsName(css, i)) {
      const start = i;
      const name = readName(css, i);
      i = name.next;
      if (css[i] !== '(') continue;
      const fn = name.value.toLowerCase();
      if (fn === 'url') {
        const body = readUrlBody(css, i + 1);
        found.push({ kind: 'url', start, end: body.next, urls: [body.url] });
        i = body.next;
      } else if (IMAGE_FUNCTIONS.has(fn)) {
        const end = skipToClose(css, i + 1);
        found.push({ kind: 'image-function', start, end, urls: stringsAndUrlsIn(css.slice(i + 1, end - 1)) });
        i = end;
      } else i++;
    } else if (char === '\\') {
      i = readEscape(css, i).next;
    } else i++;
  }
  return found;
}

/** The end of an at-rule's prelude: after its `;`, or at `{`/`}`/the end. */
function endOfAtRule(css: string, i: number): number {
  let j = i;
  while (j < css.length) {
    const char = css[j] as string;
    if (char === ';') return j + 1;
    if (char === '{' || char === '}') return j;
    if (char === '/' && css[j + 1] === '*') j = skipComment(css, j);
    else if (char === '"' || char === "'") j = readString(css, j).next;
    else if (char === '(') j = skipToClose(css, j + 1);
    else if (char === '\\') j = readEscape(css, j).next;
    else j++;
  }
  return css.length;
}

/** URLs named inside an image function: bare strings and nested `url()`. */
function stringsAndUrlsIn(args: string): string[] {
  const urls: string[] = findCssReferences(args).flatMap((ref) => ref.urls);
  let j = 0;
  while (j < args.length) {
    const char = args[j] as string;
    if (char === '/' && args[j + 1] === '*') j = skipComment(args, j);
    else if (char === '"' || char === "'") {
      const string = readString(args, j);
      urls.push(string.value);
      j = string.next;
    } else if (startsName(args, j)) {
      const name = readName(args, j);
      j = name.next;
      if (args[j] === '(') j = skipToClose(args, j + 1); // nested functions were searched above
    } else j++;
  }
  return urls;
}

/**
 * Replaces references `decide` returns a replacement for (`none` keeps a declaration
 * valid where an image was: `background: none no-repeat`), and reports how many it replaced.
 */
export function rewriteCssReferences(css: string, decide: (ref: CssReference) => string | null): { css: string; replaced: number } {
  let out = '';
  let last = 0;
  let replaced = 0;
  for (const ref of findCssReferences(css)) {
    const replacement = decide(ref);
    if (replacement === null) continue;
    out += css.slice(last, ref.start) + replacement;
    last = ref.end;
    replaced++;
  }
  return { css: replaced === 0 ? css : out + css.slice(last), replaced };
}

/** A name or value as CSS reads it, escapes decoded: `\70 osition` is `position`. */
export function decodeCssEscapes(css: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    if (startsEscape(css, i)) {
      const escape = readEscape(css, i);
      out += escape.char;
      i = escape.next;
    } else out += css[i++];
  }
  return out;
}

/**
 * Whether a selector, value or at-rule prelude stands on its own: strings end, brackets
 * balance, and no `{`, `}` or `;` outside a string. What the scoper writes back must parse
 * the same way in the browser as in postcss; a piece that does not close itself could
 * swallow the rules after it, so it is dropped instead. A `;` inside brackets is fine.
 */
export function closesItself(css: string): boolean {
  const open: string[] = [];
  let i = 0;
  while (i < css.length) {
    const char = css[i] as string;
    if (char === '/' && css[i + 1] === '*') {
      if (css.indexOf('*/', i + 2) < 0) return false;
      i = skipComment(css, i);
    } else if (char === '"' || char === "'") {
      const string = readString(css, i);
      if (!string.closed) return false;
      i = string.next;
    } else if (char === '\\') {
      if (!startsEscape(css, i)) return false;
      i = readEscape(css, i).next;
    } else if (char === '(' || char === '[') {
      open.push(char === '(' ? ')' : ']');
      i++;
    } else if (char === ')' || char === ']') {
      if (open.pop() !== char) return false;
      i++;
    } else if (char === '{' || char === '}' || (char === ';' && open.length === 0)) {
      // `;` inside brackets (`url(data:font/woff2;base64,…)`) ends nothing, for the browser as for postcss.
      return false;
    } else i++;
  }
  return open.length === 0;
}
