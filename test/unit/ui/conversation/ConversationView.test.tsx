// @vitest-environment happy-dom
import '../support/happy-dom-node-name';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { AttachmentSummary } from '../../../../shared/api/mail';
import { avatarHue } from '../../../../shared/avatar-hue';
import type { BodyView, MessageView, ThreadView } from '../../../../shared/worker-mail-api';
import type { ComposerInitial } from '../../../../src-ui/composer/compose-initial';
import { ConversationView, type ConversationViewProps } from '../../../../src-ui/conversation/ConversationView';
import { byRole, cleanup, click, key, one, render } from '../support/render';

const NOW = Date.UTC(2025, 2, 10, 12, 0);
const msg = (id: string, over: Partial<MessageView> = {}): MessageView => ({
  id,
  accountId: 'acc1',
  threadId: 't1',
  folderId: 'inbox',
  subject: 'Trip',
  from: [{ name: 'Ann Lee', email: 'ann@example.com' }],
  to: [{ name: 'Me', email: 'me@tern.test' }],
  cc: [],
  replyTo: [],
  date: NOW - 86_400_000 * (10 - Number(id)),
  unread: false,
  starred: false,
  draft: false,
  snippet: `Snippet ${id}`,
  attachments: [],
  messageIdHeader: null,
  ...over,
});
const thread = (messages: MessageView[]): ThreadView => ({
  row: {
    key: 'acc1:t1',
    accountId: 'acc1',
    threadId: 't1',
    subject: 'Trip',
    participants: [],
    snippet: '',
    lastMessageAt: NOW,
    messageCount: messages.length,
    unreadCount: 0,
    starred: false,
    hasAttachments: false,
    folderIds: ['inbox'],
    pending: false,
  },
  messages,
});
const body = (messageId: string, over: Partial<BodyView> = {}): BodyView => ({ messageId, html: null, text: `Body of ${messageId}`, attachments: [], inlineImages: {}, ...over });

function setup(messages: MessageView[], over: Partial<ConversationViewProps> = {}, bodies: Record<string, Partial<BodyView>> = {}) {
  const props = {
    loadBody: vi.fn(async (id: string) => body(id, bodies[id])),
    loadAttachment: vi.fn(async (_message: MessageView, _attachment: AttachmentSummary) => new Blob(['%PDF-1.1'], { type: 'application/x-whatever' })),
    previewAttachment: vi.fn(async (_message: MessageView, _attachment: AttachmentSummary) => 'about:blank'),
    // The gateway's image proxy signs each remote URL (as the engine hands it over).
    proxyImages: vi.fn(async (_message: MessageView, urls: readonly string[]) => Object.fromEntries(urls.map((url) => [url, `https://mail.tern.test/api/proxy/image?u=${encodeURIComponent(url)}`]))),
    onTrustSender: vi.fn(),
    onCompose: vi.fn((_initial: ComposerInitial) => undefined),
    onMessageOpened: vi.fn(),
  };
  const view = render(
    <ConversationView thread={thread(messages)} ownAddresses={['me@tern.test']} trustedSenders={[]} now={NOW} locale="en-GB" {...props} {...over} />,
  );
  return { view, ...props };
}

const settle = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'about:blank');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('messages', () => {
  test('oldest to newest; the newest and unread ones open, bodies load on expand', async () => {
    const { view, loadBody, onMessageOpened } = setup([msg('1'), msg('2', { unread: true }), msg('3')]);
    await settle();
    const articles = byRole(view, 'article');
    expect(articles.map((article) => article.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/^Message from Ann Lee, /),
      expect.stringMatching(/^Message from Ann Lee, /),
      expect.stringMatching(/^Message from Ann Lee, /),
    ]);
    const toggles = articles.map((article) => article.querySelector('.tern-message-toggle') as HTMLElement);
    expect(toggles.map((toggle) => toggle.getAttribute('aria-expanded'))).toEqual(['false', 'true', 'true']);
    expect(loadBody.mock.calls.map((call) => call[0]).sort()).toEqual(['2', '3']);
    expect(articles[0]?.textContent).toContain('Snippet 1');
    expect(onMessageOpened).toHaveBeenCalledTimes(1);
    expect(onMessageOpened.mock.calls[0]?.[0].id).toBe('2');

    click(toggles[0]);
    await settle();
    expect(loadBody).toHaveBeenCalledWith('1');
    expect(toggles[0]?.getAttribute('aria-expanded')).toBe('true');
    expect(articles[0]?.textContent).toContain('Body of 1');
    click(toggles[0]);
    click(toggles[0]);
    expect(loadBody.mock.calls.filter((call) => call[0] === '1')).toHaveLength(1); // kept after the first load
  });

  test('the avatar colour follows the hue rule (sum of character codes mod 360)', async () => {
    const { view } = setup([msg('1')]);
    await settle();
    const avatar = view.querySelector('.avatar') as HTMLElement;
    expect(avatar.textContent).toBe('AL');
    expect(avatar.style.background).toContain(`hsl(${avatarHue('ann@example.com')}`);
  });

  test('a long thread folds its middle into "N older messages"', async () => {
    const { view } = setup([msg('1'), msg('2'), msg('3'), msg('4'), msg('5'), msg('6')]);
    await settle();
    expect(byRole(view, 'article')).toHaveLength(3);
    click(one(view, 'button', /older messages/));
    expect(byRole(view, 'article')).toHaveLength(6);
  });

  test('plain text renders as text with clickable links', async () => {
    const { view } = setup([msg('1')], {}, { '1': { text: 'See https://example.com <script>x</script>' } });
    await settle();
    const link = one(view, 'link', 'https://example.com') as HTMLAnchorElement;
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(view.querySelector('script')).toBeNull();
    expect(view.querySelector('.tern-plain')?.textContent).toContain('<script>x</script>');
  });
});

describe('HTML bodies', () => {
  const html = '<p>Hi</p><img src="https://t.example/pixel.gif"><div style="background:url(https://t.example/bg.png)">x</div>';

  test('render in a sandboxed frame without scripts, remote images blocked and counted', async () => {
    const { view } = setup([msg('1')], {}, { '1': { html } });
    await settle();
    const frame = view.querySelector('iframe') as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin allow-popups allow-popups-to-escape-sandbox');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    expect(frame.getAttribute('title')).toBe('Message from Ann Lee');
    const srcdoc = frame.getAttribute('srcdoc') ?? '';
    expect(srcdoc).toContain("default-src 'none'; img-src data: blob:;");
    expect(srcdoc).not.toMatch(/\ssrc="https:\/\/t\.example\/pixel\.gif"/);
    expect(srcdoc).toContain('data-tern-blocked-src="https://t.example/pixel.gif"');
    expect(one(view, 'region', 'Remote images blocked').textContent).toContain('2 remote images are hidden');
  });

  test('"Show images" allows them for this message only', async () => {
    const { view, onTrustSender } = setup([msg('1')], {}, { '1': { html } });
    await settle();
    click(one(view, 'button', 'Show images'));
    await settle();
    const srcdoc = view.querySelector('iframe')?.getAttribute('srcdoc') ?? '';
    // Through the gateway's image proxy: the sender's server never sees the reader.
    expect(srcdoc).toContain('img-src data: blob: https://mail.tern.test/api/proxy/image;');
    expect(srcdoc).toContain(' src="https://mail.tern.test/api/proxy/image?u=https%3A%2F%2Ft.example%2Fpixel.gif"');
    expect(srcdoc).not.toContain('src="https://t.example');
    expect(byRole(view, 'region', 'Remote images blocked')).toHaveLength(0);
    expect(onTrustSender).not.toHaveBeenCalled();
  });

  test('"Always show from" hands the sender to the shell to persist; trusted senders load at once', async () => {
    const first = setup([msg('1')], {}, { '1': { html } });
    await settle();
    click(one(first.view, 'button', 'Always show from ann@example.com'));
    expect(first.onTrustSender).toHaveBeenCalledWith('ann@example.com');
    cleanup();
    const second = setup([msg('1')], { trustedSenders: ['Ann+news@Example.com'] }, { '1': { html } });
    await settle();
    expect(second.view.querySelector('iframe')?.getAttribute('srcdoc')).toContain('src="https://mail.tern.test/api/proxy/image?');
    expect(byRole(second.view, 'region', 'Remote images blocked')).toHaveLength(0);
  });

  test('cid: images show the inline parts', async () => {
    const { view } = setup([msg('1')], {}, { '1': { html: '<img src="cid:logo@x" alt="Logo">', inlineImages: { 'logo@x': 'blob:http://tern.test/logo' } } });
    await settle();
    expect(view.querySelector('iframe')?.getAttribute('srcdoc')).toContain('src="blob:http://tern.test/logo"');
  });
});

describe('attachments', () => {
  const attachments: AttachmentSummary[] = [
    { index: 0, filename: 'itinerary.pdf', size: 1_572_864, contentType: 'application/pdf', contentId: null },
    { index: 1, filename: 'scan.tiff', size: 40_000, contentType: 'image/tiff', contentId: null },
    { index: 2, filename: 'logo.png', size: 4_000, contentType: 'image/png', contentId: 'logo@x' },
    { index: 3, filename: 'notes.docx', size: 900, contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', contentId: null },
  ];

  test('lists paperclip parts with sizes in the spec units; preview only for preview types', async () => {
    const { view } = setup([msg('1', { attachments })]);
    await settle();
    const list = one(view, 'region', 'Attachments');
    expect(list.querySelector('h4')?.textContent).toContain('3 attachments · 1.5 MB');
    expect(Array.from(list.querySelectorAll('.tern-att-name')).map((name) => name.textContent)).toEqual(['itinerary.pdf', 'scan.tiff', 'notes.docx']);
    expect(Array.from(list.querySelectorAll('.tern-att-meta')).map((meta) => meta.textContent)).toEqual(['PDF · 1.5 MB', 'TIFF · 39 KB', 'DOCX · 900 B']);
    expect(byRole(list, 'button', 'Preview itinerary.pdf (1.5 MB)')).toHaveLength(1);
    expect(byRole(list, 'button', 'Download itinerary.pdf')).toHaveLength(1);
    expect(byRole(list, 'button', /^Preview scan\.tiff/)).toHaveLength(0);
    expect(byRole(list, 'button', 'Download scan.tiff (39 KB)')).toHaveLength(1);
  });

  test('the preview is a modal dialog showing the part from its sandboxed gateway address; Escape closes it', async () => {
    // happy-dom refuses frame pages (and logs it) unless told otherwise; about:blank loads nothing.
    const settings = (window as unknown as { happyDOM?: { settings: { enableIframePageLoading: boolean } } }).happyDOM?.settings;
    if (settings) settings.enableIframePageLoading = true;
    const { view, loadAttachment, previewAttachment } = setup([msg('1', { attachments })]);
    await settle();
    click(one(view, 'button', 'Preview itinerary.pdf (1.5 MB)'));
    await settle();
    const dialog = one(document.body, 'dialog', 'itinerary.pdf');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(previewAttachment.mock.calls.at(-1)?.[1].filename).toBe('itinerary.pdf');
    // No bytes come into the tab for a preview: nothing of the app's origin shows them.
    expect(loadAttachment).not.toHaveBeenCalled();
    expect(dialog.querySelector('iframe')?.getAttribute('src')).toBe('about:blank');
    const newTab = one(dialog, 'link', 'Open itinerary.pdf in a new tab');
    expect(newTab.getAttribute('href')).toBe('about:blank');
    expect(newTab.getAttribute('rel')).toBe('noopener noreferrer');
    expect(document.activeElement).toBe(one(dialog, 'button', 'Close preview'));
    key(dialog, 'Escape');
    expect(byRole(document.body, 'dialog')).toHaveLength(0);
  });
});

describe('reply, reply all, forward', () => {
  test('build the composer input from the message and its body', async () => {
    const { view, onCompose } = setup([msg('1', { cc: [{ name: 'Bob', email: 'bob@example.com' }] })]);
    await settle();
    const article = one(view, 'article');
    click(one(article, 'button', 'Reply all'));
    await settle();
    const initial = onCompose.mock.calls[0]?.[0] as ComposerInitial;
    expect(initial).toMatchObject({ mode: 'replyAll', subject: 'Re: Trip', inReplyToMessageId: '1', to: [{ email: 'ann@example.com' }], cc: [{ email: 'bob@example.com' }] });
    expect(initial.html).toContain('Body of 1');
    click(one(view.querySelector('footer') as HTMLElement, 'button', 'Forward'));
    await settle();
    expect(onCompose.mock.calls[1]?.[0]).toMatchObject({ mode: 'forward', subject: 'Fwd: Trip', to: [] });
  });

  test('a forward of a very large message carries the whole body; a reply quotes the part shown', async () => {
    const loadBody = vi.fn(async (id: string, options?: { whole?: boolean }) =>
      options?.whole ? body(id, { html: '<p>Start</p><p>End of the whole</p>' }) : body(id, { html: '<p>Start</p>', truncated: { htmlBytes: 20 * 1024 * 1024 } }),
    );
    const { view, onCompose } = setup([msg('1')], { loadBody });
    await settle();
    click(one(view.querySelector('footer') as HTMLElement, 'button', 'Reply'));
    await settle();
    expect((onCompose.mock.calls[0]?.[0] as ComposerInitial).html).not.toContain('End of the whole');
    click(one(view.querySelector('footer') as HTMLElement, 'button', 'Forward'));
    await settle();
    expect(loadBody).toHaveBeenCalledWith('1', { whole: true });
    expect((onCompose.mock.calls[1]?.[0] as ComposerInitial).html).toContain('End of the whole');
  });
});

describe('a body the gateway cannot send', () => {
  test('with no way to the gateway (offline) the message says it is not on this device yet; another failure keeps its own words', async () => {
    const { TernError } = await import('../../../../shared/errors');
    const loadBody = vi.fn(async (id: string) => {
      if (id === '1') throw new TernError('OperationFailed', { detail: { network: true } });
      throw new TernError('MessageNotFound');
    });
    const { view } = setup([msg('1'), msg('2')], { loadBody });
    await settle();
    const alerts = () => [...view.querySelectorAll('.tern-body-error')].map((element) => element.textContent);
    // The newest message opens by itself: its own failure, in its own words.
    expect(alerts()).toEqual([expect.stringContaining('The message could not be found.')]);
    // The older one opens on a click: not downloaded, and no way to the gateway.
    click(view.querySelectorAll<HTMLElement>('[aria-expanded="false"]')[0]!);
    await settle();
    expect(alerts()).toEqual([expect.stringContaining('This message is not on this device yet. It opens when you are back online.'), expect.stringContaining('The message could not be found.')]);
    expect(alerts().join(' ')).not.toContain('The operation failed');
  });
});
