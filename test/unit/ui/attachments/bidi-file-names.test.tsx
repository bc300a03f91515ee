// @vitest-environment happy-dom
/**
 * Issue point 15: a received file name with bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE
 * and friends) is shown neutralised wherever it appears — the attachment list, the
 * preview's title, the accessible names and the saved file's name — so
 * `invoice\u202Egpj.exe` reads "invoicegpj.exe", never "invoiceexe.jpg".
 */
import '../support/happy-dom-node-name';
import { afterEach, expect, test } from 'vitest';
import type { AttachmentSummary } from '../../../../shared/api/mail';
import { BIDI_CONTROLS, withoutBidiControls } from '../../../../shared/bidi-controls';
import { attachmentFacts } from '../../../../src-ui/attachments/attachment-facts';
import { AttachmentList } from '../../../../src-ui/attachments/AttachmentList';
import { AttachmentPreview } from '../../../../src-ui/attachments/AttachmentPreview';
import { cleanup, flush, render } from '../support/render';

afterEach(() => cleanup());

const CONTROLS = ['\u200e', '\u200f', '\u061c', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const disguised = (filename: string, contentType = 'application/octet-stream'): AttachmentSummary => ({ index: 0, filename, size: 20_000, contentType, contentId: null });

test('every bidi control is removed and the other characters keep their stored order', () => {
  for (const control of CONTROLS) expect(withoutBidiControls(`invoice${control}gpj.exe`)).toBe('invoicegpj.exe');
  expect(withoutBidiControls('\u2067שלום\u2069 report.pdf')).toBe('שלום report.pdf');
  expect(withoutBidiControls('plain name.txt')).toBe('plain name.txt');
});

test('the facts the list, the preview and the download use carry the neutral name', () => {
  const facts = attachmentFacts(disguised('invoice\u202egpj.exe'));
  expect(facts.name).toBe('invoicegpj.exe');
  expect(facts.badge).toBe('EXE');
  expect(attachmentFacts(disguised('\u202e\u2066 ')).name).toBe('Untitled attachment');
});

test('the attachment list shows the name isolated in <bdi>, without controls, in text, title and accessible name', () => {
  const container = render(<AttachmentList attachments={[disguised('invoice\u202egpj.exe')]} load={async () => new Blob(['x'])} preview={async () => 'about:blank'} />);
  const name = container.querySelector('.tern-att-name') as HTMLElement;
  expect(name.tagName).toBe('BDI');
  expect(name.textContent).toBe('invoicegpj.exe');
  expect(name.getAttribute('title')).toBe('invoicegpj.exe');
  const button = container.querySelector('button.tern-att-main') as HTMLElement;
  expect(button.getAttribute('aria-label')).toBe('Download invoicegpj.exe (20 KB)');
  expect(container.innerHTML).not.toMatch(BIDI_CONTROLS);
});

test('the preview dialog titles the file by its neutral name, isolated', async () => {
  const noop = () => undefined;
  const png = attachmentFacts(disguised('photo\u202egnp.exe.png', 'image/png'));
  render(<AttachmentPreview items={[png]} index={0} preview={async () => 'https://gateway.test/api/attachment-preview/t'} onIndexChange={noop} onDownload={noop} onClose={noop} />);
  await flush();
  const dialog = document.querySelector('[role="dialog"]') as HTMLElement;
  const heading = document.getElementById(dialog.getAttribute('aria-labelledby') ?? '') as HTMLElement;
  expect(heading.querySelector('bdi')?.textContent).toBe('photognp.exe.png');
  expect(heading.getAttribute('title')).toBe('photognp.exe.png');
  expect(document.body.innerHTML).not.toMatch(BIDI_CONTROLS);
});
