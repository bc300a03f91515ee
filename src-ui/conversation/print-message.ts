/**
 * Print one message (Gmail's "Print"): its header (Subject, From, To, Cc, Date) above its
 * body, in a frame of its own that is printed and removed. The body is the reading view's:
 * the same sanitising pipeline and Content-Security-Policy (mail-html/pipeline.ts), a plain
 * text body as text. The header is added with DOM methods to the parsed, already-safe
 * document (never by editing HTML strings), and the frame's sandbox has no `allow-scripts`:
 * nothing from the mail runs, here or in the print preview. `allow-modals` is what lets a
 * sandboxed frame open the print dialog; `allow-same-origin` lets this tab call its print().
 */
import type { Address } from '../../shared/api/mail';
import type { BodyView, MessageView } from '../../shared/worker-mail-api';
import { buildFrameDocument } from '../mail-html/frame-document';
import { renderMailHtml } from '../mail-html/pipeline';
import type { ProxiedImages } from '../mail-html/rendered-bodies';
import { formatFullDate } from '../kit/date-format';
import type { Translate } from '../kit/i18n';
import { senderLine } from './message-format';

export const PRINT_FRAME_SANDBOX = 'allow-same-origin allow-modals';

const PRINT_CSS = `
html, body { overflow: visible !important; height: auto !important; }
.tern-print-header { margin: 0 0 16px; padding: 0 0 12px; border-bottom: 1px solid #c9ced6; font: 13px/1.45 system-ui, sans-serif; color: #1f2328; }
.tern-print-header h1 { margin: 0 0 8px; font-size: 18px; line-height: 1.3; }
.tern-print-header table { border-collapse: collapse; }
.tern-print-header th { padding: 1px 12px 1px 0; text-align: left; vertical-align: top; font-weight: 600; color: #57606a; }
.tern-print-header td { padding: 1px 0; overflow-wrap: anywhere; }
@page { margin: 16mm; }
`;

const list = (addresses: readonly Address[]) => addresses.map(senderLine).join(', ');

/** The whole document the print frame shows: the message's header, then its body as the reading view renders it. */
/** `proxiedImages`: the allowed remote images' proxy addresses (null: blocked), as the reading view has them. */
export function printDocument(message: MessageView, body: BodyView, options: { proxiedImages: ProxiedImages | null; t: Translate; locale?: string }): string {
  const safe = body.html
    ? renderMailHtml({ html: body.html, inlineImages: body.inlineImages, proxiedImages: options.proxiedImages }).srcdoc
    : plainTextDocument(body.text ?? '');
  // Parsing is inert (DOMParser runs nothing and loads nothing); the result is only added to.
  const doc = new DOMParser().parseFromString(safe, 'text/html');
  const header = doc.createElement('header');
  header.className = 'tern-print-header';
  const subject = doc.createElement('h1');
  const { t } = options;
  subject.textContent = message.subject || t('conversation.noSubject');
  const table = doc.createElement('table');
  const rows: [string, string][] = [
    [t('composer.from'), list(message.from)],
    [t('composer.to'), list(message.to)],
    ...(message.cc.length > 0 ? [[t('composer.cc'), list(message.cc)] as [string, string]] : []),
    [t('conversation.printDate'), formatFullDate(message.date, options.locale)],
  ];
  for (const [label, value] of rows) {
    const row = table.insertRow();
    const th = doc.createElement('th');
    th.scope = 'row';
    th.textContent = label;
    const td = doc.createElement('td');
    td.textContent = value;
    row.append(th, td);
  }
  header.append(subject, table);
  doc.body.prepend(header);
  const style = doc.createElement('style');
  style.textContent = PRINT_CSS;
  doc.head.append(style);
  doc.title = message.subject || t('conversation.noSubject');
  return `<!DOCTYPE html>${doc.documentElement.outerHTML}`;
}

/** A plain-text body as a frame document (text, never markup), with the same policy as HTML mail. */
function plainTextDocument(text: string): string {
  const doc = document.implementation.createHTMLDocument('');
  const pre = doc.createElement('pre');
  pre.style.whiteSpace = 'pre-wrap';
  pre.style.font = 'inherit';
  pre.textContent = text;
  doc.body.append(pre);
  return buildFrameDocument(doc, {});
}

/**
 * Prints `srcdoc` from a hidden sandboxed frame, then removes it. The frame is left in the
 * page until the print dialog closes (`afterprint`), so the print has a document to print.
 */
export function printInFrame(srcdoc: string, title: string, owner: Document = document): HTMLIFrameElement {
  owner.querySelectorAll('iframe[data-tern-print]').forEach((frame) => frame.remove());
  const frame = owner.createElement('iframe');
  frame.setAttribute('sandbox', PRINT_FRAME_SANDBOX);
  frame.setAttribute('data-tern-print', '');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.title = title;
  // Off screen but laid out at a page's width (a 0×0 frame would print a squeezed body).
  frame.style.cssText = 'position:fixed;left:-10000px;top:0;width:800px;height:600px;border:0;visibility:hidden';
  frame.addEventListener(
    'load',
    () => {
      const view = frame.contentWindow;
      if (!view) return;
      view.addEventListener('afterprint', () => frame.remove(), { once: true });
      view.focus();
      view.print();
    },
    { once: true },
  );
  frame.srcdoc = srcdoc;
  owner.body.append(frame);
  return frame;
}
