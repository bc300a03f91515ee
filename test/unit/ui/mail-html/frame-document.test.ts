// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { buildFrameDocument, frameCsp, imageProxySource, MAIL_ROOT_CLASS } from '../../../../src-ui/mail-html/frame-document';
import { grantsScripts, MAIL_FRAME_SANDBOX } from '../../../../src-ui/mail-html/frame-sandbox';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

test('the frame sandbox never allows scripts, and has exactly the tokens DESIGN §5 names', () => {
  expect(grantsScripts(MAIL_FRAME_SANDBOX)).toBe(false);
  expect(MAIL_FRAME_SANDBOX.split(' ').sort()).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox', 'allow-same-origin']);
  expect(grantsScripts('allow-same-origin ALLOW-SCRIPTS')).toBe(true);
});

test('the CSP denies everything but inline styles, data fonts and embedded images; allowed images only from the image proxy', () => {
  expect(frameCsp(null)).toBe("default-src 'none'; img-src data: blob:; style-src 'unsafe-inline'; font-src data:; form-action 'none'; base-uri 'none'");
  const proxy = imageProxySource({ 'https://t.example/a.png': 'https://mail.tern.test/api/proxy/image?u=x&e=1&s=y' });
  expect(proxy).toBe('https://mail.tern.test/api/proxy/image');
  expect(frameCsp(proxy)).toContain("img-src data: blob: https://mail.tern.test/api/proxy/image; ");
  expect(frameCsp(proxy)).not.toMatch(/https:[; ]/);
  expect(frameCsp(proxy)).not.toContain('script-src');
  expect(imageProxySource({})).toBeNull();
  expect(imageProxySource(null)).toBeNull();
});

test('the document starts with the CSP and a no-referrer policy, then the base sheet and the mail', () => {
  const srcdoc = buildFrameDocument(parse('<p>Hello</p>'), {});
  const doc = parse(srcdoc);
  const first = doc.head.firstElementChild;
  expect(first?.getAttribute('http-equiv')).toBe('Content-Security-Policy');
  expect(first?.getAttribute('content')).toBe(frameCsp(null));
  expect(doc.querySelector('meta[name="referrer"]')?.getAttribute('content')).toBe('no-referrer');
  expect(doc.body.classList.contains(MAIL_ROOT_CLASS)).toBe(true);
  expect(doc.body.innerHTML).toBe('<p>Hello</p>');
  expect(srcdoc.startsWith('<!DOCTYPE html>')).toBe(true);
});

test('moves body styles to the head after the base sheet, and drops a style that could end itself', () => {
  const doc = parse('<p>x</p><style>.a { color: red }</style>');
  const bad = doc.createElement('style');
  bad.textContent = 'p{}</style><img src=x onerror=alert(1)>';
  doc.body.append(bad);
  const out = parse(buildFrameDocument(doc, {}));
  const styles = Array.from(out.head.querySelectorAll('style'));
  expect(styles).toHaveLength(2);
  expect(styles[1]?.textContent).toBe('.a { color: red }');
  expect(out.querySelector('img')).toBeNull();
});
