// @vitest-environment happy-dom
/**
 * Issue point 12: no attachment ever renders in the app's origin. Thumbnails, the viewer
 * and "Open in new tab" use the gateway's sandboxed address (AttachmentListProps.preview);
 * the tab makes no object URL for them, whatever the type (an SVG above all). Only a
 * download turns bytes into an object URL, typed octet-stream so it is saved, never shown.
 */
import '../support/happy-dom-node-name';
import { act } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { AttachmentSummary } from '../../../../shared/api/mail';
import { AttachmentList } from '../../../../src-ui/attachments/AttachmentList';
import { NEW_TAB_LINK_RENEW_MS } from '../../../../src-ui/attachments/AttachmentPreview';
import { byRole, cleanup, click, flush, one, render } from '../support/render';

const GATEWAY = 'https://gateway.test/api/attachment-preview/';
const svg: AttachmentSummary = { index: 0, filename: 'logo.svg', size: 20_000, contentType: 'image/svg+xml', contentId: null };
const png: AttachmentSummary = { index: 1, filename: 'photo.png', size: 40_000, contentType: 'image/png', contentId: null };

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:http://app.test/uuid');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

test('thumbnails, the viewer and "Open in new tab" show the gateway address; no object URL is made', async () => {
  const load = vi.fn(async () => new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: 'image/svg+xml' }));
  const preview = vi.fn(async (part: AttachmentSummary) => `${GATEWAY}${part.index}`);
  const view = render(<AttachmentList attachments={[svg, png]} load={load} preview={preview} />);
  await flush();
  // The PNG earns a thumbnail (spec §5 inline-image rule); it is the gateway's address.
  expect(view.querySelector('img.tern-att-thumb')?.getAttribute('src')).toBe(`${GATEWAY}1`);

  click(one(view, 'button', 'Preview logo.svg (20 KB)'));
  await flush();
  await flush();
  const dialog = one(document.body, 'dialog', 'logo.svg');
  const shown = dialog.querySelector('img.tern-preview-image') as HTMLImageElement;
  expect(shown.getAttribute('alt')).toBe('logo.svg');
  expect(shown.getAttribute('src')).toBe(`${GATEWAY}0`);
  const newTab = one(dialog, 'link', 'Open logo.svg in a new tab');
  expect(newTab.getAttribute('href')).toBe(`${GATEWAY}0`);
  expect(newTab.getAttribute('target')).toBe('_blank');
  expect(newTab.getAttribute('rel')).toBe('noopener noreferrer');

  expect(load).not.toHaveBeenCalled();
  expect(URL.createObjectURL).not.toHaveBeenCalled();
  expect(document.body.innerHTML).not.toContain('blob:');
});

test('a download is the one place bytes become an object URL, and it is octet-stream', async () => {
  const load = vi.fn(async () => new Blob(['<svg/>'], { type: 'image/svg+xml' }));
  const view = render(<AttachmentList attachments={[svg]} load={load} preview={async () => `${GATEWAY}0`} />);
  click(byRole(view, 'button', 'Download logo.svg')[0]);
  await flush();
  expect(load).toHaveBeenCalledTimes(1);
  const saved = vi.mocked(URL.createObjectURL).mock.calls[0]?.[0] as Blob;
  expect(saved.type).toBe('application/octet-stream');
});

test('while the viewer stays open, the new-tab link is renewed before the gateway’s 5 minutes run out', async () => {
  vi.useFakeTimers();
  try {
    let issued = 0;
    const preview = vi.fn(async () => `${GATEWAY}link-${++issued}`);
    const view = render(<AttachmentList attachments={[svg]} load={async () => new Blob([])} preview={preview} />);
    click(one(view, 'button', 'Preview logo.svg (20 KB)'));
    await act(() => vi.advanceTimersByTimeAsync(0));
    const dialog = one(document.body, 'dialog', 'logo.svg');
    const shown = dialog.querySelector('img.tern-preview-image') as HTMLImageElement;
    expect(shown.getAttribute('src')).toBe(`${GATEWAY}link-1`);
    expect(one(dialog, 'link', 'Open logo.svg in a new tab').getAttribute('href')).toBe(`${GATEWAY}link-1`);
    await act(() => vi.advanceTimersByTimeAsync(NEW_TAB_LINK_RENEW_MS));
    expect(one(dialog, 'link', 'Open logo.svg in a new tab').getAttribute('href')).toBe(`${GATEWAY}link-2`);
    // What is on screen has loaded already: it is not fetched again.
    expect(shown.getAttribute('src')).toBe(`${GATEWAY}link-1`);
  } finally {
    vi.useRealTimers();
  }
});
