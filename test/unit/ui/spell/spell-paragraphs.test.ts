/**
 * @vitest-environment happy-dom
 */
import { expect, test } from 'vitest';
import { paragraphRange, spellParagraphs } from '../../../../src-ui/spell/spell-paragraphs';

function editor(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.replaceChildren(root);
  return root;
}

test('one paragraph per block; a word split over formatting stays one word, a line break separates', () => {
  const root = editor('<p>I rec<b>ieve</b> it</p><p>line one<br>two</p>loose text');
  const found = spellParagraphs(root);
  expect(found.map((paragraph) => paragraph.text)).toEqual(['I recieve it', 'line one\ntwo', 'loose text']);
  expect(found[0]!.block.tagName).toBe('P');
  expect(found[2]!.block).toBe(root);
});

test('the quote of a reply, a forward, the signature, links and code are left out', () => {
  const root = editor(
    '<p>Mine here</p><div class="tern-signature"><div>-- </div><p>Alicee Kitte</p></div>' +
      '<div class="tern-quote"><p>On Tue, Bobb wrote:</p><blockquote type="cite"><p>Theirz text</p></blockquote></div>' +
      '<div class="tern-forward"><p>Forwardedd</p></div><p>see <a href="https://x.test">linkk text</a> and <code>fooBarr()</code> done</p>',
  );
  expect(spellParagraphs(root).map((paragraph) => paragraph.text)).toEqual(['Mine here', 'see  and  done']);
});

test('offsets become a range over the text nodes, across formatting', () => {
  const root = editor('<p>I rec<b>ieve</b> it</p>');
  const [paragraph] = spellParagraphs(root);
  const range = paragraphRange(paragraph!, 2, 9);
  expect(range?.toString()).toBe('recieve');
  expect(range?.startContainer).toBe(root.querySelector('p')!.firstChild);
  expect(range?.endContainer).toBe(root.querySelector('b')!.firstChild);
  // The editor's DOM is untouched: no element added.
  expect(root.innerHTML).toBe('<p>I rec<b>ieve</b> it</p>');
});

test('a paragraph whose nodes left the editor gives no range', () => {
  const root = editor('<p>gone wordd</p>');
  const [paragraph] = spellParagraphs(root);
  root.replaceChildren();
  expect(paragraphRange(paragraph!, 5, 10)).toBeNull();
});
