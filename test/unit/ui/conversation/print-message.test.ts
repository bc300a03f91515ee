// @vitest-environment happy-dom
// happy-dom's DOMPurify needs the node-name fix the other mail-html tests load.
import '../support/happy-dom-node-name';
import { afterEach, expect, test } from 'vitest';
import type { BodyView, MessageView } from '../../../../shared/worker-mail-api';
import { PRINT_FRAME_SANDBOX, printDocument, printInFrame } from '../../../../src-ui/conversation/print-message';
import { grantsScripts } from '../../../../src-ui/mail-html/frame-sandbox';
import { renderMailHtml } from '../../../../src-ui/mail-html/pipeline';
import { format } from '../../../../shared/strings';
import type { Translate } from '../../../../src-ui/kit/i18n';

const t: Translate = (id, values) => format('en', id, values);

afterEach(() => document.querySelectorAll('iframe').forEach((frame) => frame.remove()));

const message: MessageView = {
  id: '42',
  accountId: '1001',
  threadId: '7',
  folderId: '1',
  subject: 'Quarterly <plans> & numbers',
  from: [{ name: 'Bob Okafor', email: 'bob@kite.test' }],
  to: [{ name: 'Alice', email: 'alice@tern.test' }],
  cc: [{ name: '', email: 'carol@tern.test' }],
  replyTo: [],
  date: Date.UTC(2026, 10, 26, 9, 30),
  unread: false,
  starred: false,
  draft: false,
  snippet: '',
  attachments: [],
  messageIdHeader: null,
};
const body = (html: string | null, text: string | null = null): BodyView => ({ messageId: '42', html, text, attachments: [], inlineImages: {} });

function parse(srcdoc: string) {
  return new DOMParser().parseFromString(srcdoc, 'text/html');
}

test('the print document has the header (Subject, From, To, Cc, Date) above the sanitised body, and nothing that runs', () => {
  const hostile = '<p onclick="steal()">Numbers inside</p><script>steal()</script><img src="x" onerror="steal()"><a href="javascript:steal()">link</a>';
  const doc = parse(printDocument(message, body(hostile), { proxiedImages: null, t, locale: 'en-GB' }));
  const header = doc.querySelector('.tern-print-header')!;
  expect(header.querySelector('h1')?.textContent).toBe('Quarterly <plans> & numbers');
  const rows = [...header.querySelectorAll('tr')].map((row) => [row.querySelector('th')?.textContent, row.querySelector('td')?.textContent]);
  expect(rows.map(([label]) => label)).toEqual(['From', 'To', 'Cc', 'Date']);
  expect(rows[0]![1]).toBe('Bob Okafor <bob@kite.test>');
  expect(rows[2]![1]).toBe('carol@tern.test');
  expect(rows[3]![1]).toContain('2026');
  // The header comes first in the body, the mail after it.
  expect(doc.body.firstElementChild).toBe(header);
  expect(doc.body.textContent).toContain('Numbers inside');
  expect(doc.querySelectorAll('script')).toHaveLength(0);
  expect(doc.querySelector('[onclick], a[href^="javascript:"]')).toBeNull();
  // Below the header, exactly what the reading view's pipeline made of the mail (happy-dom's
  // DOMPurify keeps some handlers that Chromium's drops: the e2e checks those in a real browser).
  header.remove();
  expect(doc.body.innerHTML).toBe(parse(renderMailHtml({ html: hostile, inlineImages: {}, proxiedImages: null }).srcdoc).body.innerHTML);
  // The reading view's policy is still the first thing in the head.
  const csp = doc.head.firstElementChild!;
  expect(csp.getAttribute('http-equiv')).toBe('Content-Security-Policy');
  expect(csp.getAttribute('content')).toContain("default-src 'none'");
});

test('a plain-text body prints as text, never as markup', () => {
  const doc = parse(printDocument(message, body(null, 'Hi <b>Alice</b>,\nsee you'), { proxiedImages: null, t }));
  expect(doc.querySelector('b')).toBeNull();
  expect(doc.querySelector('pre')?.textContent).toBe('Hi <b>Alice</b>,\nsee you');
  expect(doc.head.firstElementChild?.getAttribute('http-equiv')).toBe('Content-Security-Policy');
});

test('the print frame is sandboxed without scripts, holds the document, and replaces an earlier one', () => {
  const first = printInFrame('<!DOCTYPE html><p>one</p>', 'Print');
  const frame = printInFrame('<!DOCTYPE html><p>two</p>', 'Print');
  expect(first.isConnected).toBe(false);
  expect(frame.getAttribute('sandbox')).toBe(PRINT_FRAME_SANDBOX);
  expect(grantsScripts(frame.getAttribute('sandbox')!)).toBe(false);
  expect(frame.srcdoc).toBe('<!DOCTYPE html><p>two</p>');
  expect(document.querySelectorAll('iframe[data-tern-print]')).toHaveLength(1);
});
