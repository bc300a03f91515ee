// @vitest-environment happy-dom
/**
 * A reply quoting a mail with inline (cid:) images: the composer is the app's own page, whose
 * CSP refuses cid: (a console error and a broken image), so what enters the editor names
 * such images by their alt text and keeps no cid: reference anywhere.
 */
import '../support/happy-dom-node-name';
import { expect, test } from 'vitest';
import type { BodyView, MessageView } from '../../../../shared/worker-mail-api';
import { quoteForForward, quoteForReply } from '../../../../src-ui/composer/compose-initial';
import { prepareEditorHtml } from '../../../../src-ui/composer/editor-html';

const message: MessageView = {
  id: '42',
  accountId: 'acc1',
  threadId: 't1',
  folderId: 'inbox',
  subject: 'Invoice',
  from: [{ name: 'Acme', email: 'billing@acme.test' }],
  to: [{ name: 'Me', email: 'me@tern.test' }],
  cc: [],
  replyTo: [],
  date: Date.UTC(2025, 2, 4, 14, 5),
  unread: false,
  starred: false,
  draft: false,
  snippet: 'Your invoice',
  attachments: [],
  messageIdHeader: '<m42@acme.test>',
};
const html = `<style>.banner { background: url(cid:banner@acme) no-repeat; color: #123; }</style>
  <div class="banner" style="background-image: url('cid:banner@acme'); padding: 4px">
    <img src="cid:logo@acme" alt="Company logo" width="120">
    <img srcset="cid:sig@acme 2x" src="https://acme.test/sig.png" alt="">
    <table background="cid:bg@acme"><tr><td>Total: 12 EUR</td></tr></table>
    <img src="cid:spacer@acme">
  </div>`;
const body: BodyView = { messageId: '42', html, text: null, attachments: [], inlineImages: { 'logo@acme': 'blob:x' } };

for (const [name, quote] of [
  ['reply', quoteForReply],
  ['forward', quoteForForward],
] as const) {
  test(`${name}: cid: images become their alt text; no cid: reference is left for the page to load`, () => {
    const editorHtml = prepareEditorHtml(quote(message, body));
    expect(editorHtml).not.toMatch(/cid:/i);
    const root = new DOMParser().parseFromString(`<body>${editorHtml}</body>`, 'text/html').body;
    expect(root.textContent).toContain('[Company logo]');
    expect(root.textContent).toContain('Total: 12 EUR');
    // The images without alt text are gone, the remote one with a cid: srcset too; no image is left.
    expect(root.querySelectorAll('img')).toHaveLength(0);
    expect(root.querySelector('table')?.hasAttribute('background')).toBe(false);
    expect(editorHtml).toContain('padding: 4px');
  });
}
