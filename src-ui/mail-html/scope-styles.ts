/**
 * Pipeline step: styles. A mail's CSS may only style that mail (DESIGN §5).
 *
 *   - The CSS is read by a real parser (postcss), not by hand: nesting, escapes, comments
 *     and at-rules are seen as the browser sees them. Nested rules are flattened (`&`
 *     resolved against the parent), so no rule reaches the browser with a selector the
 *     scoper did not write: `p { body:has(&) * { … } }` becomes `.scope:has(p) * { … }`.
 *   - Every selector is put under a scope selector: `p` becomes `#scope p`, and `html`,
 *     `body` or `:root` at its start stand for the scope itself. In the reading frame the
 *     scope is the frame's body; in the composer it is the element holding the quoted
 *     message, so a quoted mail cannot restyle the app around it. A selector that would
 *     reach past the scope (`body ~ *`, `+ p`, a stray `&`) is dropped.
 *   - `position` (its name decoded first: `\70 osition` is `position`) is always `static`,
 *     whatever the value, `var()` included (as Gmail does): a mail cannot lay a fake login
 *     box or a fake button over the interface around it. Property names are written back
 *     decoded, so the browser reads the name that was checked.
 *   - Conditional at-rules (`@media`, `@supports`, `@container`, `@layer`,
 *     `@starting-style`) keep their rules, scoped; descriptor at-rules (`@font-face`,
 *     `@keyframes`, …) are kept at the top level; everything else (`@import`, `@scope`,
 *     unknown names) is dropped, not guessed at. So is any piece whose brackets or strings
 *     do not close (css-references.ts `closesItself`): it could parse differently in the
 *     browser.
 *
 * postcss is imported here, so it lives in the lazy chunks of the mail view and the
 * composer, never in the entry bundle (test/unit/ui/entry-budget.test.ts). The result goes
 * back through `textContent`/`setAttribute` (see css-references.ts for why that is not
 * "editing HTML with strings").
 */
import { AtRule, Declaration, parse, Root, Rule, type ChildNode, type Container } from 'postcss';
import { closesItself, decodeCssEscapes } from './css-references';

/** At-rules whose block holds rules for the page: their rules are scoped like top-level ones. */
const CONDITIONAL_AT_RULES = new Set(['media', 'supports', 'container', 'layer', 'starting-style']);
/** At-rules whose block describes something (a font, an animation): kept as they are, declarations checked. */
const DESCRIPTOR_AT_RULES = new Set([
  'font-face', 'keyframes', '-webkit-keyframes', '-moz-keyframes', 'page', 'counter-style', 'property',
  'font-feature-values', 'font-palette-values',
]);

const ROOT_COMPOUND = /^(?:html|body|:root)(?![\w-])/i;
/** What may follow the scope: a descendant, a child, or a qualifier of the scope itself. */
const AFTER_SCOPE = /^(?:$|\s|>|[.#[:])/;
/** Property names as the browser knows them (after decoding): standard, vendor-prefixed or custom. */
const PROPERTY_NAME = /^(?:--[\w-]*|-?[a-z][a-z0-9-]*)$/i;

const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ');

/** Index where the compound selector at the start of `selector` ends (at its first top-level space or combinator). */
function endOfCompound(selector: string): number {
  let depth = 0;
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i] as string;
    if (char === '\\') i++;
    else if (char === '"' || char === "'") {
      const end = selector.indexOf(char, i + 1); // closesItself has checked that strings end
      i = end < 0 ? selector.length : end;
    } else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else if (depth === 0 && /[\s>~+|]/.test(char)) return i;
  }
  return selector.length;
}

/**
 * Puts one selector under the scope; `html`, `body` and `:root` at its start stand for the
 * scope itself. Null when the selector would reach elements outside the scope.
 */
export function scopeSelector(selector: string, scope: string): string | null {
  let rest = withoutComments(selector).trim();
  if (rest === '' || !closesItself(rest)) return null;
  let head: string;
  if (rest === scope || (rest.startsWith(scope) && AFTER_SCOPE.test(rest.slice(scope.length)))) {
    // Already scoped (a draft reopened): scoping again would demand the scope inside itself.
    head = scope;
    rest = rest.slice(scope.length);
  } else {
    let rooted = false;
    for (let match = ROOT_COMPOUND.exec(rest); match; match = ROOT_COMPOUND.exec(rest)) {
      rooted = true;
      rest = rest.slice(match[0].length);
      const gap = /^\s*>?\s*/.exec(rest)?.[0] ?? '';
      // `html body p`, `html > body p`: the next root compound is the same element for us.
      if (!ROOT_COMPOUND.test(rest.slice(gap.length))) break;
      rest = rest.slice(gap.length);
    }
    head = rooted ? scope : `${scope} `;
  }
  // `~`, `+` (and `||`, `|`) after the scope (or its qualifiers, `body:has(p) ~ *`) would
  // select its siblings, outside the mail.
  const afterScope = head === scope ? rest.slice(endOfCompound(rest)) : rest;
  if (/^\s*[~+|]/.test(afterScope)) return null;
  if (head === scope && /^\s/.test(rest)) return `${scope} ${rest.trim()}`.trimEnd();
  return head + rest.trimStart() || scope;
}

/**
 * The selectors of a rule with its parent's resolved (CSS Nesting): `&` is the parent, a
 * selector without `&` is a descendant of it (`> p`, `+ p` relative to it). At the top
 * level a selector with `&` has no parent to mean and is dropped.
 */
function resolveNesting(selectors: readonly string[], parent: readonly string[] | null): string[] {
  const resolved: string[] = [];
  for (const raw of selectors) {
    const selector = withoutComments(raw).trim();
    if (selector === '') continue;
    if (parent === null) {
      if (!selector.includes('&')) resolved.push(selector);
      continue;
    }
    const parentText = parent.length === 1 ? (parent[0] as string) : `:is(${parent.join(', ')})`;
    if (selector.includes('&')) resolved.push(selector.replaceAll('&', parentText));
    else for (const one of parent) resolved.push(`${one} ${selector}`);
  }
  return resolved;
}

/** A declaration as it may reach the browser, or null: name decoded and checked, `position` always static. */
function safeDeclaration(declaration: Declaration): Declaration | null {
  // `*zoom`, `_height`: postcss keeps the hack character before the name; browsers ignore these.
  if (/\S/.test(declaration.raws.before ?? '')) return null;
  const name = decodeCssEscapes(declaration.prop).trim();
  if (!PROPERTY_NAME.test(name)) return null;
  if (name.toLowerCase() === 'position') return new Declaration({ prop: 'position', value: 'static' });
  const value = declaration.value.trim();
  if (!closesItself(value) || /\\\s*$/.test(value)) return null;
  return new Declaration({ prop: name.startsWith('--') ? name : name.toLowerCase(), value, important: declaration.important });
}

/** A descriptor at-rule (`@font-face`, `@keyframes`…) with its declarations checked, comments gone. */
function safeDescriptorRule(atRule: AtRule): AtRule | null {
  const copy = atRule.clone();
  let safe = true;
  copy.walk((node) => {
    if (node.type === 'comment') node.remove();
    else if (node.type === 'decl') {
      const clean = safeDeclaration(node);
      if (clean) node.replaceWith(clean);
      else node.remove();
    } else if (node.type === 'rule' && !closesItself(node.selector)) safe = false;
    else if (node.type === 'atrule' && !closesItself(node.params)) safe = false;
  });
  return safe ? copy : null;
}

/**
 * Writes `source`'s children into `out`, scoped. `parent` holds the unscoped selectors of
 * the enclosing rule (null at the top level), which declarations directly inside apply to.
 */
function scopeChildren(source: Container, parent: readonly string[] | null, out: Container, scope: string): void {
  // Declarations go into one rule for the parent until a nested rule comes between (order matters).
  let own: Rule | null = null;
  for (const node of (source.nodes ?? []) as ChildNode[]) {
    if (node.type === 'decl') {
      if (parent === null) continue;
      const clean = safeDeclaration(node);
      if (!clean) continue;
      if (!own) {
        const selectors = parent.map((selector) => scopeSelector(selector, scope)).filter((selector) => selector !== null);
        if (selectors.length === 0) continue;
        own = new Rule({ selectors });
        out.append(own);
      }
      own.append(clean);
    } else if (node.type === 'rule') {
      own = null;
      const resolved = resolveNesting(node.selectors, parent);
      if (resolved.length > 0) scopeChildren(node, resolved, out, scope);
    } else if (node.type === 'atrule') {
      own = null;
      const name = decodeCssEscapes(node.name).toLowerCase();
      const params = withoutComments(node.params).trim();
      if (!closesItself(params)) continue;
      if (CONDITIONAL_AT_RULES.has(name)) {
        if (!node.nodes) {
          // `@layer a, b;` only orders layers.
          if (name === 'layer' && parent === null) out.append(new AtRule({ name, params }));
          continue;
        }
        const copy = new AtRule({ name, params });
        scopeChildren(node, parent, copy, scope);
        if ((copy.nodes?.length ?? 0) > 0) out.append(copy);
      } else if (DESCRIPTOR_AT_RULES.has(name) && parent === null && node.nodes) {
        const copy = safeDescriptorRule(node);
        if (copy) out.append(copy);
      }
      // anything else (`@import`, `@scope`, `@namespace`, unknown names) is dropped
    }
    // comments are dropped
  }
}

/**
 * Every `</` written `<\/`: the text goes into a `<style>` element, which `</style` would
 * end. CSS reads `\/` as `/` (in strings and URLs too); a lone `<` stays, so range media
 * queries (`(width < 600px)`) keep working.
 */
const inertInStyleElement = (css: string) => css.replace(/<\//g, '<\\/');

/**
 * The sheet's top-level statements, for parsing one by one when postcss refuses the whole
 * (it is stricter than browsers: a stray word or `}` would cost a mail all its styles).
 * Splitting only isolates failures: what reaches the browser is still postcss's reading,
 * scoped and written anew. An unclosed last block is closed, as the browser does.
 */
function topLevelStatements(css: string): string[] {
  const statements: string[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < css.length) {
    const char = css[i] as string;
    if (char === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 2;
      continue;
    }
    if (char === '"' || char === "'") {
      i++;
      while (i < css.length && css[i] !== char && css[i] !== '\n') i += css[i] === '\\' ? 2 : 1;
    } else if (char === '\\') i++;
    else if (char === '{') depth++;
    else if (char === '}') {
      if (depth > 0) depth--;
      if (depth === 0) {
        statements.push(css.slice(start, i + 1));
        start = i + 1;
      }
    } else if (char === ';' && depth === 0) {
      statements.push(css.slice(start, i + 1));
      start = i + 1;
    }
    i++;
  }
  statements.push(css.slice(start) + '}'.repeat(depth));
  return statements;
}

/** The sheet as postcss reads it; statements it refuses are left out. */
function parseSheet(css: string): Root {
  // `<!--` and `-->` around a sheet (an old habit of mail HTML) are ignored by browsers.
  const text = css.replace(/<!--|-->/g, ' ');
  try {
    return parse(text);
  } catch {
    const root = new Root();
    for (const statement of topLevelStatements(text)) {
      try {
        root.append(...parse(statement).nodes);
      } catch {
        // this statement styles nothing
      }
    }
    return root;
  }
}

/** Scopes a stylesheet's text. */
export function scopeCss(css: string, scope: string): string {
  const source = parseSheet(css);
  const out = new Root();
  scopeChildren(source, null, out, scope);
  out.raws.semicolon = true; // a last `@layer a, b;` keeps its `;`
  out.walk((node) => {
    node.raws.before = node.parent === out ? '\n' : ' ';
    if (node.type === 'rule' || (node.type === 'atrule' && node.nodes)) node.raws.between = ' ';
    if (node.type === 'rule' || node.type === 'atrule') {
      node.raws.after = ' ';
      node.raws.semicolon = false;
    }
  });
  return inertInStyleElement(out.toString().trim());
}

/** A style attribute's declarations, checked like a sheet's (`position` static, names decoded); as written when all pass. */
export function scopeStyleAttribute(style: string): string {
  // Only `position` is changed here, and it can only be spelled with its letters or with
  // escapes: an attribute with neither (nearly all: a newsletter has thousands) is left as
  // written without parsing it.
  if (!/position|\\/i.test(style)) return style;
  let source: Root;
  try {
    // A rule around the declarations; a `}` in the attribute ends it, and what follows is ignored.
    source = parse(`x{${style}}`);
  } catch {
    return '';
  }
  const first = source.first;
  if (!first || first.type !== 'rule') return '';
  const kept: string[] = [];
  let changed = source.nodes.length !== 1;
  first.each((node) => {
    if (node.type !== 'decl') return void (changed = true);
    const clean = safeDeclaration(node);
    if (clean) kept.push(`${clean.prop}: ${clean.value}${clean.important ? ' !important' : ''}`);
    changed ||= !clean || clean.prop !== node.prop || clean.value !== node.value || node.raws.value !== undefined;
  });
  // Unchanged, the attribute stays as written (a rewrite would only reformat it).
  return changed ? kept.join('; ') : style;
}

export interface ScopeOptions {
  /** The selector of the element the mail's styles are confined to, e.g. `#tern-mail`. */
  readonly scope: string;
}

export function scopeMailStyles(doc: Document, options: ScopeOptions): void {
  for (const style of Array.from(doc.querySelectorAll('style'))) {
    const scoped = scopeCss(style.textContent ?? '', options.scope);
    if (scoped === '') style.remove();
    else style.textContent = scoped;
  }
  for (const element of Array.from(doc.querySelectorAll('[style]'))) {
    const style = element.getAttribute('style') ?? '';
    const checked = scopeStyleAttribute(style);
    if (checked === '') element.removeAttribute('style');
    else if (checked !== style) element.setAttribute('style', checked);
  }
}
