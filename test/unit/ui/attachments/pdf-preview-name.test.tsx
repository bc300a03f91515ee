// @vitest-environment happy-dom
/**
 * A PDF in the viewer is named by its file name (walkthrough 3, item 13): Chromium's own PDF
 * toolbar titles a blob: URL by its UUID and cannot be told otherwise (it reads the PDF's
 * metadata or the URL's last segment), so the dialog's heading and the frame's accessible
 * name carry the file name.
 */
import '../support/happy-dom-node-name';
import { afterEach, expect, test } from 'vitest';
import type { AttachmentSummary } from '../../../../shared/api/mail';
import { attachmentFacts } from '../../../../src-ui/attachments/attachment-facts';
import { AttachmentPreview } from '../../../../src-ui/attachments/AttachmentPreview';
import { cleanup, flush, render } from '../support/render';

afterEach(() => cleanup());

test('the PDF preview dialog and its frame are named by the file name, not the address', async () => {
  const pdf: AttachmentSummary = { index: 0, filename: 'contract_v2.pdf', size: 920, contentType: 'application/pdf', contentId: null };
  const noop = () => undefined;
  render(
    <AttachmentPreview items={[attachmentFacts(pdf)]} index={0} preview={async () => 'https://gateway.test/api/attachment-preview/t'} onIndexChange={noop} onDownload={noop} onClose={noop} />,
  );
  await flush();
  await flush();
  const dialog = document.querySelector('[role="dialog"]') as HTMLElement;
  const heading = document.getElementById(dialog.getAttribute('aria-labelledby') ?? '');
  expect(heading?.textContent).toBe('contract_v2.pdf');
  const frame = dialog.querySelector('iframe.tern-preview-pdf') as HTMLIFrameElement;
  // The gateway's sandboxed address (issue point 12), never a blob: of the app's origin.
  expect(frame.getAttribute('src')).toBe('https://gateway.test/api/attachment-preview/t');
  expect(frame.getAttribute('title')).toBe('contract_v2.pdf');
});
