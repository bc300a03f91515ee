// @vitest-environment happy-dom
/**
 * Issue point 14: a body the gateway cut (BodyView.truncated) shows its first part with
 * "Show the whole message (20.0 MB)", which asks for the whole only when pressed; the whole
 * is shown in a frame without allow-same-origin, which Chromium lays out in another process.
 */
import '../support/happy-dom-node-name';
import { afterEach, expect, test, vi } from 'vitest';
import { MAX_SHOWN_HTML_CHARS } from '../../../../shared/api/mail';
import type { BodyView } from '../../../../shared/worker-mail-api';
import { MailBody } from '../../../../src-ui/mail-html/MailBody';
import { cleanup, click, flush, one, render } from '../support/render';

afterEach(() => cleanup());

const noop = () => undefined;
const cut: BodyView = { messageId: '1', html: '<p>The start of a long report</p>', text: null, attachments: [], inlineImages: {}, truncated: { htmlBytes: 20 * 1024 * 1024 } };

test('a cut body says so and offers the whole; pressing it asks once and shows it busy meanwhile', async () => {
  let finish: () => void = noop;
  const onShowWhole = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
  const view = render(<MailBody body={cut} allowRemote={false} onAllowMessage={noop} onAllowSender={noop} title="Message from Ann" onShowWhole={onShowWhole} />);
  const bar = one(view, 'region', 'Large message');
  expect(bar.textContent).toContain('This message is large (20.0 MB): only its first part is shown.');
  const button = one(bar, 'button', 'Show the whole message (20.0 MB)');
  click(button);
  expect(onShowWhole).toHaveBeenCalledTimes(1);
  expect(button.getAttribute('aria-busy')).toBe('true');
  expect(button.textContent).toBe('Loading the whole message…');
  finish();
  await flush();
  expect(button.getAttribute('aria-busy')).toBe('false');
});

test('a cut plain-text body says so too', () => {
  const text: BodyView = { messageId: '1', html: null, text: 'The start of a long log\n', attachments: [], inlineImages: {}, truncated: { textBytes: 3 * 1024 * 1024 } };
  const view = render(<MailBody body={text} allowRemote={false} onAllowMessage={noop} onAllowSender={noop} title="Message from Ann" onShowWhole={async () => undefined} />);
  one(one(view, 'region', 'Large message'), 'button', 'Show the whole message (3.0 MB)');
  expect(view.textContent).toContain('The start of a long log');
});

test('a whole body has no such bar', () => {
  const { truncated: _cut, ...whole } = cut;
  const view = render(<MailBody body={whole} allowRemote={false} onAllowMessage={noop} onAllowSender={noop} title="Message from Ann" />);
  expect(view.querySelector('[aria-label="Large message"]')).toBeNull();
});

test('the whole of a very large body goes into a frame without allow-same-origin (laid out off this page’s thread); a usual one into the same-origin frame', () => {
  const whole: BodyView = { messageId: '1', html: `<p>${'x'.repeat(MAX_SHOWN_HTML_CHARS)}</p>`, text: null, attachments: [], inlineImages: {} };
  const view = render(<MailBody body={whole} allowRemote={false} onAllowMessage={noop} onAllowSender={noop} title="Message from Ann" />);
  const frame = view.querySelector('iframe') as HTMLIFrameElement;
  expect(frame.getAttribute('title')).toBe('Message from Ann');
  expect(frame.getAttribute('sandbox')?.split(' ')).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
  expect(frame.getAttribute('srcdoc')).toContain('Content-Security-Policy');
  cleanup();
  const usual = render(<MailBody body={cut} allowRemote={false} onAllowMessage={noop} onAllowSender={noop} title="Message from Ann" />);
  expect(usual.querySelector('iframe')?.getAttribute('sandbox')).toContain('allow-same-origin');
});
