// @vitest-environment happy-dom
import '../support/happy-dom-node-name';
import { afterEach, expect, test, vi } from 'vitest';
import type { BodyView } from '../../../../shared/worker-mail-api';
import { MailBody } from '../../../../src-ui/mail-html/MailBody';
import { mailPurifier } from '../../../../src-ui/mail-html/purify-config';
import { useState } from 'react';
import { cleanup, click, flush, render } from '../support/render';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const body = (html: string): BodyView => ({ messageId: 'm1', html, text: null, attachments: [], inlineImages: {} });
const noop = () => undefined;
const srcdocOf = (container: HTMLElement) => container.querySelector('iframe')?.getAttribute('srcdoc');
/** The gateway's signatures, as the engine hands them over. */
const proxyImages = vi.fn(async (urls: readonly string[]) => Object.fromEntries(urls.map((url) => [url, `https://mail.tern.test/api/proxy/image?u=${encodeURIComponent(url)}`])));

test('a body shown again is not sanitised again: the same document for the same body and remote-content choice', async () => {
  const sanitize = vi.spyOn(mailPurifier(), 'sanitize');
  proxyImages.mockClear();
  const newsletter = body('<p>Hello <img src="https://tracker.example/pixel.gif"> <b>world</b></p>');
  const show = (value: BodyView, allowRemote: boolean) =>
    render(<MailBody body={value} allowRemote={allowRemote} proxyImages={proxyImages} onAllowMessage={noop} onAllowSender={noop} title="Message" />);

  const first = srcdocOf(show(newsletter, false));
  cleanup();
  const again = srcdocOf(show(newsletter, false));
  expect(again).toBe(first);
  expect(sanitize).toHaveBeenCalledTimes(1);

  // Allowing remote images is another document (its own CSP, the images through the proxy), made once too.
  cleanup();
  const shown = show(newsletter, true);
  await flush();
  const allowed = srcdocOf(shown);
  expect(allowed).not.toBe(first);
  expect(allowed).toContain('src="https://mail.tern.test/api/proxy/image?u=https%3A%2F%2Ftracker.example%2Fpixel.gif"');
  cleanup();
  show(newsletter, true);
  await flush();
  expect(sanitize).toHaveBeenCalledTimes(2);
  expect(proxyImages).toHaveBeenCalledTimes(1); // signed once per body

  // Another body (even with the same HTML) is its own entry: the cache follows the body object.
  cleanup();
  show(body(newsletter.html!), false);
  expect(sanitize).toHaveBeenCalledTimes(3);
});

test('a new document gets a new frame (a document keeps the CSP it was written with: it could not allow images later)', async () => {
  const newsletter = body('<p>Hi <img src="https://tracker.example/pixel.gif"></p>');
  function Host() {
    const [allowRemote, setAllowRemote] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setAllowRemote(true)}>
          allow
        </button>
        <MailBody body={newsletter} allowRemote={allowRemote} proxyImages={proxyImages} onAllowMessage={noop} onAllowSender={noop} title="Message" />
      </>
    );
  }
  const container = render(<Host />);
  const blocked = container.querySelector('iframe');
  expect(blocked?.getAttribute('srcdoc')).toContain('img-src data: blob:;');
  click(container.querySelector('button'));
  await flush();
  const allowed = container.querySelector('iframe');
  expect(allowed).not.toBe(blocked);
  expect(allowed?.getAttribute('srcdoc')).toContain('img-src data: blob: https://mail.tern.test/api/proxy/image;');
  expect(allowed?.getAttribute('srcdoc')).not.toContain('https://tracker.example');
});
