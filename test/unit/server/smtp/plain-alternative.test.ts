// @vitest-environment happy-dom
/**
 * The text/plain part of a message written in Tern's composer: the editor's HTML as
 * Chromium's contenteditable makes it (a <p> per Enter, `defaultParagraphSeparator` 'p'),
 * through the composer's outgoing step (editor-html.ts) and the gateway's plain alternative.
 */
import '../../ui/support/happy-dom-node-name';
import { expect, test } from 'vitest';
import { plainAlternative } from '../../../../src-server/smtp/plain-alternative';
import { prepareOutgoingHtml } from '../../../../src-ui/composer/editor-html';
import { withSignature } from '../../../../src-ui/composer/signature-html';

test('"line 1 ⏎ line 2 ⏎ ⏎ line 3" is sent as one newline and one blank line, not double blank lines', () => {
  // Recorded from Chromium: an empty editor typed into (first line bare), and one that starts with a <p>.
  expect(plainAlternative(prepareOutgoingHtml('line 1<p>line 2</p><p><br></p><p>line 3</p>'))).toBe('line 1\nline 2\n\nline 3');
  expect(plainAlternative(prepareOutgoingHtml('<p>line 1</p><p>line 2</p><p><br></p><p>line 3<br>soft</p>'))).toBe('line 1\nline 2\n\nline 3\nsoft');
});

test('a reply: the writer’s lines, a link as "text <url>", the quote with "> "', () => {
  const editor =
    '<p>Hi Bob,</p><p>see <a href="https://x.example/a">the report</a></p><p><br></p><p>Alice</p>' +
    '<div class="tern-quote"><p>On Monday Bob wrote:</p><blockquote type="cite"><p>Can you send it?</p></blockquote></div>';
  expect(plainAlternative(prepareOutgoingHtml(editor))).toBe('Hi Bob,\nsee the report <https://x.example/a>\n\nAlice\n\nOn Monday Bob wrote:\n\n> Can you send it?');
});

test('a signature keeps its "-- " separator line, trailing space included (RFC 3676), above the quote', () => {
  const body = withSignature('<p><br></p><div class="tern-quote"><p>On Monday Bob wrote:</p><blockquote type="cite"><p>Hi</p></blockquote></div>', '<p><b>Alice Tern</b><br>Tern Ltd</p>');
  const editor = `<p>Thanks!</p>${body.slice('<p><br></p>'.length)}`;
  const text = plainAlternative(prepareOutgoingHtml(editor));
  expect(text).toBe('Thanks!\n-- \nAlice Tern\nTern Ltd\n\nOn Monday Bob wrote:\n\n> Hi');
  // Only the signature's separator: a "-- " the writer typed is text like any other.
  expect(plainAlternative(prepareOutgoingHtml('<p>a -- b</p>'))).toBe('a -- b');
});
