// @vitest-environment happy-dom
/**
 * Remote images once shown (walkthrough 3, items 1, 12, 14): a picture that fails becomes a
 * placeholder that can shrink; the pipeline tells plain mail (no colours of its own) from
 * designed mail; a trusted sender's images can be stopped from the message.
 */
import '../support/happy-dom-node-name';
import { afterEach, expect, test, vi } from 'vitest';
import type { BodyView } from '../../../../shared/worker-mail-api';
import { BROKEN_SRC_ATTR, replaceBrokenImage } from '../../../../src-ui/mail-html/broken-images';
import { TRANSPARENT_PIXEL } from '../../../../src-ui/mail-html/fit-width';
import { FRAME_BASE_CSS } from '../../../../src-ui/mail-html/frame-document';
import { MailBody } from '../../../../src-ui/mail-html/MailBody';
import { declaresOwnColours, PLAIN_COLOURS_CLASS } from '../../../../src-ui/mail-html/own-colours';
import { renderMailHtml } from '../../../../src-ui/mail-html/pipeline';
import { cleanup, click, render } from '../support/render';

afterEach(() => cleanup());

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

test('a failed remote picture becomes a transparent placeholder of its shape (a picture shrinks in a table cell; a broken one held the mail at its width)', () => {
  const doc = parse(
    '<picture><source srcset="https://x.example/a.webp"><img id="both" src="https://x.example/a.png" srcset="https://x.example/a@2x.png 2x" width="560" height="280" style="height:auto;aspect-ratio:560 / 280" alt="Story"></picture>' +
      '<img id="wide" src="https://x.example/b.png" width="560" alt=""><img id="bare" src="https://x.example/c.png">' +
      '<img id="styled" src="https://x.example/d.png" width="560" style="width:50%">',
  );
  const both = doc.getElementById('both') as HTMLImageElement;
  expect(replaceBrokenImage(both)).toBe(true);
  expect(both.getAttribute('src')).toBe(TRANSPARENT_PIXEL);
  expect(both.getAttribute(BROKEN_SRC_ATTR)).toBe('https://x.example/a.png');
  expect(both.hasAttribute('srcset')).toBe(false);
  expect(doc.querySelectorAll('source')).toHaveLength(0);
  // Its shape came from fit-width.ts already; the alt text stays for screen readers.
  expect(both.getAttribute('style')).toBe('height:auto;aspect-ratio:560 / 280');
  expect(both.getAttribute('alt')).toBe('Story');
  // One known side: a strip, not a 560 px square; none: the placeholder's smallest box.
  const wide = doc.getElementById('wide') as HTMLImageElement;
  replaceBrokenImage(wide);
  expect(wide.getAttribute('style')).toBe('width:560px;height:18px');
  const bare = doc.getElementById('bare') as HTMLImageElement;
  replaceBrokenImage(bare);
  expect(bare.getAttribute('style')).toBe('width:18px;height:18px');
  // The sender's own sizing is kept.
  const styled = doc.getElementById('styled') as HTMLImageElement;
  replaceBrokenImage(styled);
  expect(styled.getAttribute('style')).toBe('width:50%');
  // Never twice, never our own pictures, never anything but images.
  expect(replaceBrokenImage(both)).toBe(false);
  const own = parse('<img src="data:image/png;base64,AAAA"><video src="https://x.example/v.mp4"></video>');
  expect(replaceBrokenImage(own.querySelector('img'))).toBe(false);
  expect(replaceBrokenImage(own.querySelector('video'))).toBe(false);
  expect(replaceBrokenImage(null)).toBe(false);
  // The base sheet draws the placeholder behind it, as for a blocked picture.
  expect(FRAME_BASE_CSS).toContain('img[data-tern-broken-src]');
});

test('plain mail is told from mail with colours of its own, and every doubt keeps the light rendering', () => {
  expect(declaresOwnColours(parse('<p>Hi <b>Alice</b>, <a href="https://x.example">notes</a></p><blockquote type="cite">Earlier</blockquote><table border="1"><tr><td>1</td></tr></table>'))).toBe(false);
  expect(declaresOwnColours(parse('<p style="border-color:red;margin:0">Border only</p>'))).toBe(false);
  for (const coloured of [
    '<body style="margin:0;background:#f4f4f7"><p>x</p></body>',
    '<p style="color:#333">x</p>',
    '<table bgcolor="#ffffff"><tr><td>x</td></tr></table>',
    '<font color="red">x</font>',
    '<style>.x{background-color:#fff}</style><p class="x">x</p>',
    '<style>p { color: red }</style><p>x</p>',
    '<table><tr><td data-tern-blocked-background="https://x.example/bg.png">x</td></tr></table>',
    '<svg><rect/></svg>',
  ]) {
    expect(declaresOwnColours(parse(coloured)), coloured).toBe(true);
  }
});

test('the pipeline marks plain mail for the dark theme, counts remote images when allowed too, and the base sheet darkens only plain mail', () => {
  const plain = renderMailHtml({ html: '<p>Hello <img src="https://x.example/a.png"></p>', inlineImages: {}, proxiedImages: { 'https://x.example/a.png': 'https://mail.tern.test/api/proxy/image?u=a' } });
  expect(plain.plainColours).toBe(true);
  expect(plain.remote).toBe(1);
  expect(plain.blockedRemote).toBe(0);
  expect(parse(plain.srcdoc).documentElement.classList.contains(PLAIN_COLOURS_CLASS)).toBe(true);
  const designed = renderMailHtml({ html: '<div style="background:#fff;color:#111">Hello</div>', inlineImages: {}, proxiedImages: null });
  expect(designed.plainColours).toBe(false);
  expect(designed.remote).toBe(0);
  expect(parse(designed.srcdoc).documentElement.classList.contains(PLAIN_COLOURS_CLASS)).toBe(false);
  expect(FRAME_BASE_CSS).toContain('html.tern-mail-plain[data-tern-theme=dark] body { color: #e7eaef; background: transparent; }');
});

const body = (html: string): BodyView => ({ messageId: 'm1', html, text: null, attachments: [], inlineImages: {} });
const noop = () => undefined;

test('a trusted sender’s message says its images always show, and Stop asks to take the sender off the list', () => {
  const onDistrustSender = vi.fn();
  const newsletter = body('<p>News <img src="https://x.example/a.png"></p>');
  const show = (trusted: boolean, html = newsletter) =>
    render(
      <MailBody body={html} allowRemote={trusted} senderTrusted={trusted} senderEmail="news@x.example" onAllowMessage={noop} onAllowSender={noop} onDistrustSender={onDistrustSender} title="Message" />,
    );
  const container = show(true);
  const line = container.querySelector('[role="region"][aria-label="Remote images shown"]');
  expect(line?.textContent).toContain('Images from news@x.example are always shown.');
  const stop = container.querySelector('button[aria-label="Stop always showing images from news@x.example"]') as HTMLButtonElement;
  click(stop);
  expect(onDistrustSender).toHaveBeenCalledWith('news@x.example');
  // Not trusted: the bar offering images instead; trusted but nothing remote: no line.
  cleanup();
  expect(show(false).querySelector('[aria-label="Remote images shown"]')).toBeNull();
  cleanup();
  expect(show(true, body('<p>No pictures</p>')).querySelector('[aria-label="Remote images shown"]')).toBeNull();
});

test('the frame of plain mail is marked for the dark theme, a designed one is not', () => {
  const container = render(<MailBody body={body('<p>Plain</p>')} allowRemote={false} onAllowMessage={noop} onAllowSender={noop} title="Message" />);
  expect(container.querySelector('iframe')?.className).toBe('tern-mail-frame is-plain');
  cleanup();
  const designed = render(<MailBody body={body('<p style="color:#333">Designed</p>')} allowRemote={false} onAllowMessage={noop} onAllowSender={noop} title="Message" />);
  expect(designed.querySelector('iframe')?.className).toBe('tern-mail-frame');
});

test('stopping a sender is persisted as trusting was, and other tabs follow', async () => {
  const { createStore } = await import('jotai');
  const { createPreferences, TRUSTED_SENDERS_KEY } = await import('../../../../src-ui/state/preferences');
  const { trustedSendersAtom } = await import('../../../../src-ui/state/atoms');
  const saved = new Map<string, string>();
  const storage = { getItem: (key: string) => saved.get(key) ?? null, setItem: (key: string, value: string) => void saved.set(key, value) };
  const store = createStore();
  const preferences = createPreferences(store, { storage });
  preferences.trustSender('News@X.example');
  preferences.trustSender('other@y.example');
  expect(JSON.parse(saved.get(TRUSTED_SENDERS_KEY) ?? '[]')).toEqual(['news@x.example', 'other@y.example']);
  preferences.distrustSender('NEWS@x.example');
  expect(store.get(trustedSendersAtom)).toEqual(['other@y.example']);
  expect(JSON.parse(saved.get(TRUSTED_SENDERS_KEY) ?? '[]')).toEqual(['other@y.example']);
  // A new tab reads it so.
  const later = createStore();
  createPreferences(later, { storage }).dispose();
  expect(later.get(trustedSendersAtom)).toEqual(['other@y.example']);
  preferences.dispose();
});
