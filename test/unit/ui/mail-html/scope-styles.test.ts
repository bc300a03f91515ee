// @vitest-environment happy-dom
/**
 * Mail CSS is scoped with a real parser (issue point 13, DESIGN §5): every payload of the
 * issue — nesting that climbs out through `&`, `\70 osition`, comments, `var()` — is
 * confined to the scope or dropped.
 */
import { describe, expect, test } from 'vitest';
import { scopeCss, scopeMailStyles, scopeSelector, scopeStyleAttribute } from '../../../../src-ui/mail-html/scope-styles';

describe('scopeSelector', () => {
  test.each([
    ['p', '.s p'],
    ['body', '.s'],
    ['html body .x', '.s .x'],
    ['html > body > table', '.s > table'],
    [':root', '.s'],
    ['body.dark a', '.s.dark a'],
    ['.s p', '.s p'],
    ['.s > p', '.s > p'],
    ['.s:has(.x) p', '.s:has(.x) p'],
    ['* ', '.s *'],
    ['bodyguard', '.s bodyguard'],
    ['.s-other p', '.s .s-other p'],
  ])('%s → %s', (selector, scoped) => expect(scopeSelector(selector, '.s')).toBe(scoped));

  test.each([['body ~ *'], ['html + div'], ['body:has(p) ~ *'], ['html:not([x="a b"]) + *'], ['.s.x ~ p'], ['.s ~ p'], ['.s + *'], ['~ p'], ['+ p'], [':root ~ *'], ['a[title'], ['a:is(b'], ['p "x']])(
    '%s reaches outside the scope (or does not close) and is dropped',
    (selector) => expect(scopeSelector(selector, '.s')).toBeNull(),
  );
});

describe('scopeCss', () => {
  test('scopes every rule, inside @media too, and keeps @font-face (with a data: font) and @keyframes', () => {
    const css =
      'body { margin: 0 } p, td { color: red } @media (max-width: 600px) { .col { width: 100% } } @font-face { font-family: X; src: url(data:font/woff2;base64,AA) } @keyframes k { from { opacity: 0 } }';
    expect(scopeCss(css, '.s')).toBe(
      [
        '.s { margin: 0 }',
        '.s p, .s td { color: red }',
        '@media (max-width: 600px) { .s .col { width: 100% } }',
        '@font-face { font-family: X; src: url(data:font/woff2;base64,AA) }',
        '@keyframes k { from { opacity: 0 } }',
      ].join('\n'),
    );
  });

  test('a style that tries to reach the app is confined to the scope', () => {
    expect(scopeCss('* { display: none !important } #root, .shell { visibility: hidden }', '.s')).toBe(
      '.s * { display: none !important }\n.s #root, .s .shell { visibility: hidden }',
    );
  });

  test('nesting cannot climb out: `p { body:has(&) * { … } }` (the issue’s payload) styles only inside the scope', () => {
    expect(scopeCss('p { body:has(&) * { visibility:hidden } }', '.s')).toBe('.s:has(p) * { visibility: hidden }');
    expect(scopeCss('p { html:has(&) ~ * { visibility:hidden } }', '.s')).toBe('');
    expect(scopeCss(':root { & * { display: none } }', '.s')).toBe('.s * { display: none }');
    expect(scopeCss('& { color: red } & ~ * { color: red }', '.s')).toBe('');
  });

  test('nested rules are flattened in order, inside at-rules and with relative selectors', () => {
    const css = '.a { color: red; & .b { color: blue } > .c { margin: 0 } + .d { margin: 1px } @media (x) { color: green; .e { padding: 0 } } color: black }';
    expect(scopeCss(css, '.s')).toBe(
      [
        '.s .a { color: red }',
        '.s .a .b { color: blue }',
        '.s .a > .c { margin: 0 }',
        '.s .a + .d { margin: 1px }',
        '@media (x) { .s .a { color: green } .s .a .e { padding: 0 } }',
        '.s .a { color: black }',
      ].join('\n'),
    );
    expect(scopeCss('.a, .b { .c & { color: red } }', '.s')).toBe('.s .c :is(.a, .b) { color: red }');
    expect(scopeCss('@supports (display: grid) { @container (width > 1px) { @layer x { p { q { color: red } } } } }', '.s')).toBe(
      '@supports (display: grid) { @container (width > 1px) { @layer x { .s p q { color: red } } } }',
    );
  });

  test('position is static whatever its spelling: escapes, comments, var(), !important, case', () => {
    expect(scopeCss('.x { \\70 osition: fixed; top: 0 }', '.s')).toBe('.s .x { position: static; top: 0 }');
    expect(scopeCss('.x { \\000070osition: fixed }', '.s')).toBe('.s .x { position: static }');
    expect(scopeCss('.x { pos\\ition: sticky }', '.s')).toBe('.s .x { position: static }');
    expect(scopeCss('.x { position/**/: /**/fixed }', '.s')).toBe('.s .x { position: static }');
    expect(scopeCss('.x { position: fi/**/xed }', '.s')).toBe('.s .x { position: static }');
    expect(scopeCss('.x { --p: fixed; position: var(--p) }', '.s')).toBe('.s .x { --p: fixed; position: static }');
    expect(scopeCss('.x { POSITION: absolute !important; inset: 0 }', '.s')).toBe('.s .x { position: static; inset: 0 }');
    // A comment inside the name splits it: the browser ignores the declaration, and so do we.
    expect(scopeCss('.x { posi/**/tion: fixed; top: 0 } p { color: red }', '.s')).toBe('.s p { color: red }');
  });

  test('at-rules: @import, @scope, @namespace and unknown ones are dropped, escaped names decoded first', () => {
    expect(scopeCss('@import url(https://x.test/a.css); p { color: red }', '.s')).toBe('.s p { color: red }');
    expect(scopeCss('@scope (body) { :scope ~ * { display: none } }', '.s')).toBe('');
    // postcss reads the name as `\6d` (the escape's space ends it): not a name we know, so dropped.
    expect(scopeCss('@\\6d edia screen { p { color: red } }', '.s')).toBe('');
    expect(scopeCss('@unknown x { p { color: red } } p { color: blue }', '.s')).toBe('.s p { color: blue }');
    expect(scopeCss('@layer a, b; @layer a { p { color: red } }', '.s')).toBe('@layer a, b;\n@layer a { .s p { color: red } }');
    expect(scopeCss('p { @font-face { font-family: X } }', '.s')).toBe('');
  });

  test('sloppy sheets keep what a browser would keep; what does not close is dropped', () => {
    expect(scopeCss('<!-- p { color: blue } -->', '.s')).toBe('.s p { color: blue }');
    expect(scopeCss('p { color: red', '.s')).toBe('.s p { color: red }');
    expect(scopeCss('p { color red; top: 0 } q { margin: 0 }', '.s')).toBe('.s q { margin: 0 }');
    expect(scopeCss('p { color: red } } q { margin: 0 }', '.s')).toBe('.s p { color: red }\n.s q { margin: 0 }');
    expect(scopeCss('p { *zoom: 1; _height: 1px; top: 0 }', '.s')).toBe('.s p { top: 0 }');
    expect(scopeCss('a[x { color: red } p { color: blue }', '.s')).not.toMatch(/^(?!\.s)/m);
  });

  test('nothing can end the <style> element it is written into', () => {
    // postcss writes `</style` as `\3c /style`; every other `</` becomes `<\/` (both read as `</` by CSS).
    const out = scopeCss('p { content: "</style><script>x</script>" } q { content: "</STYLE" }', '.s');
    expect(out).not.toMatch(/<\//);
    expect(out).toBe('.s p { content: "\\3c /style><script>x<\\/script>" }\n.s q { content: "\\3c /STYLE" }');
    expect(scopeCss('@media (width < 600px) { p { color: red } }', '.s')).toBe('@media (width < 600px) { .s p { color: red } }');
  });

  test('every rule that comes out starts with the scope', () => {
    const hostile = [
      'p { body:has(&) * { visibility: hidden } }',
      'p { :root & ~ * { x: y } }',
      '@media all { body > * { display: none } & { x: y } }',
      ':is(body) * { display: none }',
      'html, body, div { margin: 0 }',
      '.s, body ~ div { color: red }',
    ].join('\n');
    const out = scopeCss(hostile, '.s');
    for (const line of out.split('\n')) {
      const selectors = line.replace(/^@media all \{ /, '').replace(/ \{.*$/, '');
      for (const selector of selectors.split(', ')) expect(selector).toMatch(/^\.s(?:$|[\s.:>#[])/);
    }
  });
});

test('scopeStyleAttribute: position static under any spelling, the rest as written', () => {
  expect(scopeStyleAttribute('color:red;margin:0')).toBe('color:red;margin:0');
  expect(scopeStyleAttribute('position:fixed;top:0')).toBe('position: static; top: 0');
  expect(scopeStyleAttribute('\\70 osition: fixed; inset: 0')).toBe('position: static; inset: 0');
  expect(scopeStyleAttribute('position: var(--p)')).toBe('position: static');
  // Nothing to change: left as written, unparsed (a style attribute can hold no rules, only declarations).
  expect(scopeStyleAttribute('color: red; } body { display: none')).toBe('color: red; } body { display: none');
  expect(scopeStyleAttribute('color: red; } body { position: fixed')).toBe('color: red');
  expect(scopeStyleAttribute('Position:\\66 ixed')).toBe('position: static');
});

test('scopeMailStyles rewrites <style> elements and style attributes through the DOM', () => {
  const doc = new DOMParser().parseFromString(
    '<style>a { color: red }</style><style>@import url(x.css);</style><div style="\\70 osition:fixed;top:0">x</div><p style="color:red">y</p>',
    'text/html',
  );
  scopeMailStyles(doc, { scope: '.tern-mail-root' });
  expect(Array.from(doc.querySelectorAll('style'), (style) => style.textContent)).toEqual(['.tern-mail-root a { color: red }']);
  expect(doc.querySelector('div')?.getAttribute('style')).toBe('position: static; top: 0');
  expect(doc.querySelector('p')?.getAttribute('style')).toBe('color:red');
});
