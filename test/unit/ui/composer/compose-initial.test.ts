// @vitest-environment happy-dom
import '../support/happy-dom-node-name';
import { describe, expect, test } from 'vitest';
import type { BodyView, MessageView } from '../../../../shared/worker-mail-api';
import {
  composeFromMailto,
  composeFromMessage,
  prefixedSubject,
  quoteForForward,
  quoteForReply,
  replyRecipients,
} from '../../../../src-ui/composer/compose-initial';

const message = (over: Partial<MessageView> = {}): MessageView => ({
  id: '42',
  accountId: 'acc1',
  threadId: 't1',
  folderId: 'inbox',
  subject: 'Quarterly plan',
  from: [{ name: 'Ann Lee', email: 'ann@example.com' }],
  to: [{ name: 'Me', email: 'me@tern.test' }, { name: 'Bob', email: 'bob@example.com' }],
  cc: [{ name: 'Carol', email: 'carol@example.com' }, { name: '', email: 'ME+lists@tern.test' }],
  replyTo: [],
  date: Date.UTC(2025, 2, 4, 14, 5),
  unread: false,
  starred: false,
  draft: false,
  snippet: 'Here is the plan',
  attachments: [],
  messageIdHeader: '<m42@example.com>',
  ...over,
});
const body = (over: Partial<BodyView> = {}): BodyView => ({ messageId: '42', html: null, text: 'Line 1\n<b>not bold</b>', attachments: [], inlineImages: {}, ...over });
const own = ['me@tern.test'];
const parse = (html: string) => new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html').body;

describe('recipients', () => {
  test('reply goes to the sender, or to Reply-To when set', () => {
    expect(replyRecipients(message(), 'reply', own)).toEqual({ to: [{ name: 'Ann Lee', email: 'ann@example.com' }], cc: [] });
    expect(replyRecipients(message({ replyTo: [{ name: 'List', email: 'list@example.com' }] }), 'reply', own).to).toEqual([{ name: 'List', email: 'list@example.com' }]);
  });

  test('reply all keeps everyone except the user (any case, any +suffix)', () => {
    const { to, cc } = replyRecipients(message(), 'replyAll', own);
    expect(to.map((address) => address.email)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(cc.map((address) => address.email)).toEqual(['carol@example.com']);
  });

  test('replying to my own message goes to its recipients', () => {
    const mine = message({ from: [{ name: 'Me', email: 'me@tern.test' }], to: [{ name: 'Bob', email: 'bob@example.com' }], cc: [] });
    expect(replyRecipients(mine, 'reply', own).to).toEqual([{ name: 'Bob', email: 'bob@example.com' }]);
  });
});

test('subjects get one prefix', () => {
  expect(prefixedSubject('Plan', 'Re')).toBe('Re: Plan');
  expect(prefixedSubject('RE: Plan', 'Re')).toBe('RE: Plan');
  expect(prefixedSubject('Aw: Plan', 'Re')).toBe('Aw: Plan');
  expect(prefixedSubject('Re: Plan', 'Fwd')).toBe('Fwd: Re: Plan');
  expect(prefixedSubject('Fwd: Plan', 'Fwd')).toBe('Fwd: Plan');
});

describe('quoting', () => {
  test('a reply quotes the original in a blockquote under "On <date>, <name> wrote:"', () => {
    const root = parse(quoteForReply(message(), body(), 'en-GB'));
    const intro = root.querySelector('.tern-quote > p')?.textContent ?? '';
    expect(intro).toMatch(/^On Tue, 4 Mar 2025 at \d\d:\d\d, Ann Lee <ann@example\.com> wrote:$/);
    const quote = root.querySelector('blockquote[type="cite"]');
    expect(quote?.textContent).toBe('Line 1<b>not bold</b>');
    expect(quote?.querySelector('b')).toBeNull(); // plain text stays text
    expect(quote?.querySelectorAll('br')).toHaveLength(1);
    // An empty line above the quote to write on.
    expect(root.firstElementChild?.localName).toBe('p');
  });

  test('an HTML original is quoted sanitised, with its styles confined to the quote', () => {
    const root = parse(quoteForReply(message(), body({ html: '<style>p { color: red }</style><p onclick="x()">Hi <img src="https://t.example/a.png"></p>' })));
    const quote = root.querySelector('blockquote') as HTMLElement;
    const scope = Array.from(quote.classList).find((name) => name.startsWith('tern-quote-'));
    expect(scope).toBeDefined();
    expect(quote.querySelector('style')?.textContent).toBe(`.${scope} p { color: red }`);
    expect(quote.querySelector('[onclick]')).toBeNull();
    expect(quote.querySelector('img')?.getAttribute('src')).toBe('https://t.example/a.png'); // kept for the recipient; the editor parks it
  });

  test('a forward carries the original headers block and the body unquoted', () => {
    const root = parse(quoteForForward(message(), body({ text: 'Body text' }), 'en-GB'));
    const header = root.querySelector('.tern-forward-header')?.textContent ?? '';
    expect(header).toContain('---------- Forwarded message ---------');
    expect(header).toContain('From: Ann Lee <ann@example.com>');
    expect(header).toContain('Subject: Quarterly plan');
    expect(header).toContain('To: Me <me@tern.test>, Bob <bob@example.com>');
    expect(header).toContain('Cc: Carol <carol@example.com>, ME+lists@tern.test');
    expect(header).toMatch(/Date: Tue, 4 Mar 2025 at/);
    expect(root.querySelector('blockquote')).toBeNull();
    expect(root.textContent).toContain('Body text');
  });
});

describe('composeFromMessage', () => {
  test('reply: recipients, Re: subject, the quote and the parent id', () => {
    const initial = composeFromMessage({ mode: 'reply', message: message(), body: body(), ownAddresses: own });
    expect(initial).toMatchObject({ mode: 'reply', accountId: 'acc1', subject: 'Re: Quarterly plan', inReplyToMessageId: '42', to: [{ email: 'ann@example.com' }], cc: [] });
    expect(initial.html).toContain('wrote:');
  });

  test('forward: Fwd: subject, no recipients, and the paperclip attachments to upload', async () => {
    const attachments = [
      { index: 0, filename: 'plan.pdf', size: 200_000, contentType: 'application/pdf', contentId: null },
      { index: 1, filename: 'logo.png', size: 3_000, contentType: 'image/png', contentId: 'logo@x' },
      { index: 2, filename: 'photo.jpg', size: 90_000, contentType: 'image/jpeg', contentId: 'photo@x' },
    ];
    const loads: number[] = [];
    const initial = composeFromMessage({
      mode: 'forward',
      message: message({ attachments }),
      body: body({ attachments }),
      ownAddresses: own,
      loadAttachment: async (index) => {
        loads.push(index);
        return new Blob(['x']);
      },
    });
    expect(initial).toMatchObject({ mode: 'forward', subject: 'Fwd: Quarterly plan', to: [], cc: [] });
    expect(initial.inReplyToMessageId).toBeUndefined();
    expect(initial.pendingAttachments?.map((part) => part.fileName)).toEqual(['plan.pdf', 'photo.jpg']);
    await initial.pendingAttachments?.[1]?.load();
    expect(loads).toEqual([2]);
  });
});

test('forward: inline images the body shows by cid: travel as attachments (the composer shows only their alt text)', () => {
  const attachments = [
    { index: 0, filename: 'logo.png', size: 3_000, contentType: 'image/png', contentId: '<Logo@X>' },
    { index: 1, filename: 'unused.png', size: 3_000, contentType: 'image/png', contentId: 'unused@x' },
  ];
  const initial = composeFromMessage({
    mode: 'forward',
    message: message({ attachments }),
    body: body({ attachments, html: '<p>Hi</p><img src="cid:logo@x" alt="Company logo">' }),
    ownAddresses: own,
    loadAttachment: async () => new Blob(['x']),
  });
  expect(initial.pendingAttachments?.map((part) => part.fileName)).toEqual(['logo.png']);
});

test('mailto: links fill recipients, subject and body', () => {
  const initial = composeFromMailto('mailto:ann@example.com,bob@example.com?cc=carol@example.com&subject=Hi%20there&body=Line%201%0ALine%202', 'acc1');
  expect(initial.to.map((address) => address.email)).toEqual(['ann@example.com', 'bob@example.com']);
  expect(initial.cc.map((address) => address.email)).toEqual(['carol@example.com']);
  expect(initial.subject).toBe('Hi there');
  expect(parse(initial.html).querySelectorAll('p')).toHaveLength(2);
});
