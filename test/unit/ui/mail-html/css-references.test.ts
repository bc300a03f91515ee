import { describe, expect, test } from 'vitest';
import { findCssReferences, rewriteCssReferences } from '../../../../src-ui/mail-html/css-references';

const urls = (css: string) => findCssReferences(css).flatMap((ref) => ref.urls);

describe('findCssReferences', () => {
  test('finds quoted and unquoted url()', () => {
    expect(urls(`a { background: url(https://t.example/a.png) } b { background-image: url("https://t.example/b.png") } c { x: url( 'c.png' ) }`)).toEqual([
      'https://t.example/a.png',
      'https://t.example/b.png',
      'c.png',
    ]);
  });

  test('decodes CSS escapes that spell url( and the address', () => {
    expect(urls('a { background: \\75 rl(https://t.example/x.png) }')).toEqual(['https://t.example/x.png']);
    expect(urls('a { background: U\\52L(https://t.example/y.png) }')).toEqual(['https://t.example/y.png']);
    expect(urls('a { background: url("\\68 ttps://t.example/z.png") }')).toEqual(['https://t.example/z.png']);
  });

  test('finds image-set strings without url()', () => {
    const refs = findCssReferences('a { background-image: -webkit-image-set("https://t.example/1x.png" 1x, url(https://t.example/2x.png) 2x) }');
    expect(refs).toHaveLength(1);
    expect(refs[0]?.kind).toBe('image-function');
    expect(refs[0]?.urls).toEqual(['https://t.example/2x.png', 'https://t.example/1x.png']);
  });

  test('finds @import in both forms', () => {
    const refs = findCssReferences('@import "https://t.example/a.css"; @import url(https://t.example/b.css) screen; p { color: red }');
    expect(refs.map((ref) => ref.kind)).toEqual(['import', 'import']);
    expect(refs.flatMap((ref) => ref.urls)).toEqual(['https://t.example/a.css', 'https://t.example/b.css']);
  });

  test('ignores look-alikes in comments and strings', () => {
    expect(urls('/* url(https://t.example/c.png) */ a::before { content: "url(https://t.example/s.png)" } b { font-family: urlish }')).toEqual([]);
  });
});

describe('rewriteCssReferences', () => {
  test('replaces only what the decision names and counts it', () => {
    const css = 'a { background: url(https://t.example/a.png) no-repeat red; } b { background: url(data:image/png;base64,AA==) }';
    const result = rewriteCssReferences(css, (ref) => (ref.urls[0]?.startsWith('https:') ? 'none' : null));
    expect(result.replaced).toBe(1);
    expect(result.css).toBe('a { background: none no-repeat red; } b { background: url(data:image/png;base64,AA==) }');
  });

  test('leaves text alone when nothing is replaced', () => {
    const css = 'p { color: red }';
    expect(rewriteCssReferences(css, () => null)).toEqual({ css, replaced: 0 });
  });
});
