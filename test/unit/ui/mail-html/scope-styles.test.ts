// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { neutralisePosition, scopeCss, scopeMailStyles, scopeSelector, splitSelectors } from '../../../../src-ui/mail-html/scope-styles';

describe('scopeSelector', () => {
  test.each([
    ['p', '.s p'],
    ['body', '.s'],
    ['html body .x', '.s .x'],
    ['html > body > table', '.s > table'],
    [':root', '.s'],
    ['body.dark a', '.s.dark a'],
    ['.s p', '.s p'],
    ['* ', '.s *'],
    ['bodyguard', '.s bodyguard'],
  ])('%s → %s', (selector, scoped) => expect(scopeSelector(selector, '.s')).toBe(scoped));
});

test('splitSelectors splits on top-level commas only', () => {
  expect(splitSelectors('a, b:is(.x, .y), [title="a,b"]')).toEqual(['a', 'b:is(.x, .y)', '[title="a,b"]']);
});

describe('scopeCss', () => {
  test('scopes every rule, inside @media too, and keeps @font-face and @keyframes', () => {
    const css = 'body { margin: 0 } p, td { color: red } @media (max-width: 600px) { .col { width: 100% } } @font-face { font-family: X; src: url(data:font/woff2;base64,AA) } @keyframes k { from { opacity: 0 } }';
    const out = scopeCss(css, '.s');
    expect(out).toContain('.s {');
    expect(out).toContain('.s p, .s td {');
    expect(out).toMatch(/@media \(max-width: 600px\) \{\s*\.s \.col \{/);
    expect(out).toContain('@font-face {');
    expect(out).toContain('@keyframes k {');
  });

  test('a style that tries to reach the app is confined to the scope', () => {
    const out = scopeCss('* { display: none !important } #root, .shell { visibility: hidden }', '.s');
    expect(out).toBe('.s * { display: none !important } .s #root, .s .shell { visibility: hidden }');
  });

  test('drops unknown at-rules and stray markup', () => {
    expect(scopeCss('<!-- @unknown x { p { color: red } } p { color: blue } -->', '.s').trim()).toBe('.s p { color: blue }');
  });

  test('resets position so mail cannot lay boxes over the interface', () => {
    expect(scopeCss('.overlay { position: fixed; inset: 0 }', '.s')).toBe('.s .overlay { position: static; inset: 0 }');
    expect(neutralisePosition('top: 0; POSITION: absolute !important')).toBe('top: 0; POSITION: static');
  });
});

test('scopeMailStyles rewrites <style> elements and style attributes through the DOM', () => {
  const doc = new DOMParser().parseFromString('<style>a { color: red }</style><div style="position:fixed;top:0">x</div>', 'text/html');
  scopeMailStyles(doc, { scope: '.tern-mail-root' });
  expect(doc.querySelector('style')?.textContent).toBe('.tern-mail-root a { color: red }');
  expect(doc.querySelector('div')?.getAttribute('style')).toBe('position:static;top:0');
});
