/**
 * Pipeline step: styles. A mail's CSS may only style that mail.
 *
 *   - Every selector of every `<style>` is put under a scope selector: `p` becomes
 *     `#scope p`, and rules for `html`, `body` or `:root` apply to the scope itself. In
 *     the reading frame the scope is the frame's body; in the composer it is the element
 *     holding the quoted message, so a quoted mail cannot restyle the app around it.
 *   - `position` is reset to `static` (as Gmail does): a mail cannot lay a fake login
 *     box or a fake button over the interface around it.
 *   - Rules the scoper does not understand (unknown at-rules) are dropped, not guessed at.
 *
 * It works on CSS text, written back through `textContent`/`setAttribute` (see
 * css-references.ts for why that is not "editing HTML with strings").
 */

const SCOPE_TRANSPARENT_AT_RULES = new Set(['media', 'supports', 'container', 'layer', 'scope', 'starting-style']);
const KEPT_AT_RULES = new Set([
  'font-face', 'keyframes', '-webkit-keyframes', '-moz-keyframes', 'page', 'counter-style', 'property',
  'font-feature-values', 'font-palette-values', 'charset', 'namespace',
]);

/** Index after a comment, string or bracketed run starting at `i`; `i + 1` for anything else. */
function skipAtom(css: string, i: number): number {
  const char = css[i];
  if (char === '/' && css[i + 1] === '*') {
    const end = css.indexOf('*/', i + 2);
    return end < 0 ? css.length : end + 2;
  }
  if (char === '"' || char === "'") {
    let j = i + 1;
    while (j < css.length && css[j] !== char && css[j] !== '\n') j += css[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, css.length);
  }
  if (char === '\\') return i + 2;
  return i + 1;
}

/** Index of the first `stop` character at nesting depth 0 from `i`, or -1. */
function findTopLevel(css: string, i: number, stops: string): number {
  let depth = 0;
  let j = i;
  while (j < css.length) {
    const char = css[j] as string;
    if (depth === 0 && stops.includes(char)) return j;
    if (char === '(' || char === '[') depth++;
    else if ((char === ')' || char === ']') && depth > 0) depth--;
    j = skipAtom(css, j);
  }
  return -1;
}

/** Index just after the `}` closing the block whose `{` is at `open`, or -1 when unbalanced. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  let j = open;
  while (j < css.length) {
    const char = css[j] as string;
    if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return j + 1;
    j = skipAtom(css, j);
  }
  return -1;
}

/** Splits a selector list on its top-level commas. */
export function splitSelectors(prelude: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (true) {
    const comma = findTopLevel(prelude, i, ',');
    if (comma < 0) break;
    parts.push(prelude.slice(start, comma));
    start = i = comma + 1;
  }
  parts.push(prelude.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

const ROOT_COMPOUND = /^(?:html|body|:root)(?![\w-])/i;

/** Puts one selector under the scope; `html`, `body` and `:root` at its start stand for the scope itself. */
export function scopeSelector(selector: string, scope: string): string {
  let rest = selector.trim();
  // Already scoped (a draft reopened): scoping again would demand the scope inside itself.
  if (rest === scope || (rest.startsWith(scope) && /^[\s>.#[:]/.test(rest.slice(scope.length)))) return rest;
  let rooted = false;
  for (let match = ROOT_COMPOUND.exec(rest); match; match = ROOT_COMPOUND.exec(rest)) {
    rooted = true;
    rest = rest.slice(match[0].length);
    const gap = /^\s*>?\s*/.exec(rest)?.[0] ?? '';
    // `html body p`, `html > body p`: the next root compound is the same element for us.
    if (!ROOT_COMPOUND.test(rest.slice(gap.length))) break;
    rest = rest.slice(gap.length);
  }
  if (!rooted) return `${scope} ${rest}`;
  if (rest.trim() === '') return scope;
  // Qualifiers of the root compound (`body.dark`, `body[dir=rtl]`) stay on the scope.
  if (/^[.#[:]/.test(rest)) return scope + rest;
  return `${scope} ${rest.trimStart()}`;
}

/** Declarations: `position` is reset to static. */
export function neutralisePosition(declarations: string): string {
  return declarations.replace(/(^|[;{\s])(position\s*:\s*)(?:fixed|sticky|absolute|relative|-webkit-sticky)(\s*!\s*important)?/gi, '$1$2static');
}

/** Scopes a stylesheet's text. */
export function scopeCss(css: string, scope: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const char = css[i] as string;
    if (/\s/.test(char)) {
      out += char;
      i++;
      continue;
    }
    if (char === '/' && css[i + 1] === '*') {
      i = skipAtom(css, i);
      continue;
    }
    // HTML comment markers (CSS's CDO/CDC tokens), stray markup, unbalanced closers.
    if (css.startsWith('<!--', i)) {
      i += 4;
      continue;
    }
    if (css.startsWith('-->', i)) {
      i += 3;
      continue;
    }
    if (char === '<' || char === '}' || char === ';') {
      i++;
      continue;
    }
    const stop = findTopLevel(css, i, '{;');
    if (stop < 0) break; // a prelude with no block: nothing more to style
    const prelude = css.slice(i, stop).trim();
    if (css[stop] === ';') {
      // A statement at-rule (`@charset`, `@layer a, b;`); `@import` never survives (remote-content.ts).
      const name = /^@([\w-]+)/.exec(prelude)?.[1]?.toLowerCase();
      if (name === 'charset' || name === 'layer' || name === 'namespace') out += `${prelude};`;
      i = stop + 1;
      continue;
    }
    const end = blockEnd(css, stop);
    if (end < 0) break;
    const body = css.slice(stop + 1, end - 1);
    if (prelude.startsWith('@')) {
      const name = (/^@([\w-]+)/.exec(prelude)?.[1] ?? '').toLowerCase();
      if (SCOPE_TRANSPARENT_AT_RULES.has(name)) out += `${prelude} {${scopeCss(body, scope)}}`;
      else if (KEPT_AT_RULES.has(name)) out += `${prelude} {${body}}`;
      // anything else is dropped
    } else {
      const selectors = splitSelectors(prelude).map((selector) => scopeSelector(selector, scope));
      if (selectors.length > 0) out += `${selectors.join(', ')} {${neutralisePosition(body)}}`;
    }
    i = end;
  }
  return out;
}

export interface ScopeOptions {
  /** The selector of the element the mail's styles are confined to, e.g. `#tern-mail`. */
  readonly scope: string;
}

export function scopeMailStyles(doc: Document, options: ScopeOptions): void {
  for (const style of Array.from(doc.querySelectorAll('style'))) {
    style.textContent = scopeCss(style.textContent ?? '', options.scope);
    // Media queries on a <style> element itself are kept by the element; nothing to do.
  }
  for (const element of Array.from(doc.querySelectorAll('[style]'))) {
    const style = element.getAttribute('style') ?? '';
    const neutral = neutralisePosition(style);
    if (neutral !== style) element.setAttribute('style', neutral);
  }
}
