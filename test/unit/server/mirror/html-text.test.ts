import { describe, expect, test } from 'vitest';
import { htmlToPlainText, htmlToText } from '../../../../src-server/mirror/html-text';
import { snippetFrom } from '../../../../src-server/mirror/snippet';
import { plainAlternative } from '../../../../src-server/smtp/plain-alternative';

const htmlSnippet = (html: string) => snippetFrom(Buffer.from(html), { html: true, encoding: '8bit', charset: 'utf-8' });

/** What Chromium's contenteditable makes of "line 1 ⏎ line 2 ⏎ ⏎ line 3" in Tern's composer (defaultParagraphSeparator 'p'), wrapped as editor-html.ts sends it. */
const COMPOSER_LINES = '<div class="tern-body"><p>line 1</p><p>line 2</p><p><br></p><p>line 3</p></div>';

describe('snippet text from HTML (one line, no addresses, no images)', () => {
  test.each([
    ['an attribute holding ">" leaks nothing', '<p title="a>b">Hello</p><p data-x=\'c>d\'>there</p>', 'Hello there'],
    ['a single-quoted href', "<p>see <a href='https://x.example/a'>the report</a></p>", 'see the report'],
    ['named and numeric entities', '<p>Caf&eacute;&hellip; a&nbsp;b &mdash; &Omega; &rarr; &copy; &euro; &#8364; &#x263A; &amp;c</p>', 'Café… a b — Ω → © € € ☺ &c'],
    ['text then a paragraph stays two words', 'Hi,<p>x</p>', 'Hi, x'],
    ['the composer’s lines', COMPOSER_LINES, 'line 1 line 2 line 3'],
    ['images and their alt text are left out', '<img src="https://t.example/p.gif" alt="tracker"><p>Body</p>', 'Body'],
    ['head, style, script and comments vanish', '<head><title>T</title><style>p{}</style></head><body><!-- x --><p>Hi</p><script>a()</script></body>', 'Hi'],
    ['a document cut inside a tag', '<p>Hi Bob</p><a href="https://exa', 'Hi Bob'],
    ['a document cut inside a style block', '<p>Hi</p><style>.x { color: red', 'Hi'],
    ['table cells are words apart', '<table><tr><td>Total</td><td>12 €</td></tr></table>', 'Total 12 €'],
  ])('%s', (_name, html, expected) => {
    expect(htmlSnippet(html)).toBe(expected);
  });

  test('hidden preheader text is kept: senders write it to be the preview', () => {
    expect(htmlSnippet('<span style="display:none">Your week in review</span><p>Body</p>')).toBe('Your week in review Body');
  });

  test('search text keeps the words of every block', () => {
    expect(htmlToText('<div>one</div><div>two</div>').split(/\s+/)).toEqual(['one', 'two']);
  });
});

describe('the text/plain alternative Tern sends', () => {
  test.each([
    ['an attribute holding ">"', '<p title="a>b">Hello</p>', 'Hello'],
    ['a single-quoted href keeps its address', "<p>see <a href='https://x.example/a'>the report</a></p>", 'see the report <https://x.example/a>'],
    ['a double-quoted href', '<a href="https://x.example/a">the report</a>', 'the report <https://x.example/a>'],
    ['a link that is its own text is written once', '<a href="https://x.example/">https://x.example/</a>', 'https://x.example/'],
    ['a mailto link to its own address', '<a href="mailto:bob@kite.test">bob@kite.test</a>', 'bob@kite.test'],
    ['a javascript: or cid: link keeps only its text', '<a href="javascript:alert(1)">click</a> <a href="cid:x@y">pic</a>', 'click pic'],
    ['named entities', '<p>&eacute; &hellip; a&nbsp;b &mdash; &lt;tag&gt; &quot;q&quot; &szlig;</p>', 'é … a b — <tag> "q" ß'],
    ['text before a paragraph keeps its line break', 'Hi,<p>x</p>', 'Hi,\n\nx'],
    ['paragraphs are one blank line apart', '<p>one</p><p>two</p>', 'one\n\ntwo'],
    ['<br> is one newline', '<p>one<br>two</p>', 'one\ntwo'],
    ['a <br> that ends its paragraph draws no line', '<p>one<br></p><p>two</p>', 'one\n\ntwo'],
    ['<div> lines are one newline, an empty <div><br></div> one blank line (Gmail’s composer)', '<div>a</div><div>b</div><div><br></div><div>c</div>', 'a\nb\n\nc'],
    ['the composer’s Enter is one newline, Enter Enter one blank line', COMPOSER_LINES, 'line 1\nline 2\n\nline 3'],
    ['quoted blocks with "> "', '<p>reply</p><blockquote type="cite"><p>quoted</p><p>two</p></blockquote>', 'reply\n\n> quoted\n>\n> two'],
    ['nested quotes', '<blockquote><p>a</p><blockquote><p>b</p></blockquote></blockquote>', '> a\n>\n> > b'],
    ['lists', '<ul><li>one</li><li>two</li></ul>', '- one\n- two'],
    ['headings keep their case and stand apart', '<h1>Agenda</h1><p>Items</p>', 'Agenda\n\nItems'],
    ['head, style and script leave nothing', '<html><head><style>p{color:red}</style></head><body><p>Hi</p><script>x()</script></body></html>', 'Hi'],
    ['images leave nothing', '<p>Logo: <img src="cid:logo" alt="Logo"></p>', 'Logo:'],
  ])('%s', (_name, html, expected) => {
    expect(plainAlternative(html)).toBe(expected);
  });

  test('a composer reply with a link, a signature line and a quote', () => {
    const html =
      '<div class="tern-body"><p>Hi Bob,</p><p>see <a href="https://x.example/a">the report</a></p><p><br></p><p>Alice</p>' +
      '<blockquote type="cite"><p>Can you send it?</p></blockquote></div>';
    expect(htmlToPlainText(html)).toBe('Hi Bob,\nsee the report <https://x.example/a>\n\nAlice\n\n> Can you send it?');
  });
});
