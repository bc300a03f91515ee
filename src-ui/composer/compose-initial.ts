/**
 * What a composer opens with, and how a reply, reply-all, forward or `mailto:` link
 * makes it. Pure functions (the quote is built on a DOM tree, never by pasting HTML
 * strings together), so the shell can call them without loading the composer's React.
 */
import type { Address } from '../../shared/api/mail';
import { addressKey, sameAddress } from '../../shared/address-equivalence';
import { showsPaperclip } from '../../shared/attachment-rules';
import { withoutBidiControls } from '../../shared/bidi-controls';
import type { BodyView, DraftInput, MessageView } from '../../shared/worker-mail-api';
import { sanitizeMailHtml } from '../mail-html/sanitize-html';
import { scopeMailStyles } from '../mail-html/scope-styles';
import { parseMailto } from './mailto-uri';

// What a composer opens with is state (the open composer's atom holds it): declared in state/, used here.
import type { ComposeMode, ComposerInitial, UploadedAttachment } from '../state/composer-initial';

export type { ComposeMode, ComposerInitial, PendingAttachment, UploadedAttachment } from '../state/composer-initial';

const displayName = (address: Address) => address.name.trim() || address.email;
const formatAddress = (address: Address) => (address.name.trim() ? `${address.name.trim()} <${address.email}>` : address.email);

/** "Tue, 4 Mar 2025 at 14:05" in the reader's language (or `locale`). */
export function formatQuoteDate(epochMs: number, locale?: string): string {
  const date = new Date(epochMs);
  const day = date.toLocaleDateString(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  const time = date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  return `${day} at ${time}`;
}

/** "Re: x" once, whatever prefixes (Re, RE, Aw, Fwd…) the subject already had. */
export function prefixedSubject(subject: string, prefix: 'Re' | 'Fwd'): string {
  const trimmed = subject.trim();
  const already = prefix === 'Re' ? /^(?:re|aw|sv|antw)\s*(?:\[\d+\])?\s*:/i : /^(?:fwd?|wg|tr)\s*:/i;
  return already.test(trimmed) ? trimmed : `${prefix}: ${trimmed}`.trimEnd();
}

/** Addresses without duplicates (address equivalence, spec §5) and without the user's own. */
export function dedupeAddresses(addresses: readonly Address[], exclude: readonly string[] = []): Address[] {
  const seen = new Set(exclude.map(addressKey));
  const out: Address[] = [];
  for (const address of addresses) {
    const key = addressKey(address.email);
    if (!address.email || seen.has(key)) continue;
    seen.add(key);
    out.push(address);
  }
  return out;
}

const isOwn = (email: string, own: readonly string[]) => own.some((mine) => sameAddress(mine, email));

/** Recipients of a reply or reply-all (spec: reply goes to Reply-To when set; own messages reply to their recipients). */
export function replyRecipients(message: MessageView, mode: 'reply' | 'replyAll', ownAddresses: readonly string[]): { to: Address[]; cc: Address[] } {
  const sentByMe = message.from.some((address) => isOwn(address.email, ownAddresses));
  const primary = sentByMe ? message.to : message.replyTo.length > 0 ? message.replyTo : message.from;
  if (mode === 'reply') {
    const to = sentByMe ? dedupeAddresses(primary) : dedupeAddresses(primary, ownAddresses);
    return { to: to.length > 0 ? to : dedupeAddresses(primary), cc: [] };
  }
  const to = dedupeAddresses(sentByMe ? primary : [...primary, ...message.to], ownAddresses);
  const cc = dedupeAddresses(message.cc, [...ownAddresses, ...to.map((address) => address.email)]);
  return { to: to.length > 0 ? to : dedupeAddresses(primary), cc };
}

/** A class naming one quote, so the quoted mail's styles apply inside it and nowhere else. */
function quoteClass(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return `tern-quote-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The original's body as nodes for `container`: sanitised HTML (its styles scoped to
 * the container), or escaped text with line breaks.
 */
function originalContent(doc: Document, body: BodyView | null, message: MessageView, container: HTMLElement): Node[] {
  if (body?.html && body.html.trim() !== '') {
    const clean = sanitizeMailHtml(body.html);
    const scope = quoteClass();
    scopeMailStyles(clean, { scope: `.${scope}` });
    container.classList.add(scope);
    const nodes = [...Array.from(clean.head.querySelectorAll('style')), ...Array.from(clean.body.childNodes)];
    return nodes.map((node) => doc.importNode(node, true));
  }
  const text = body?.text ?? message.snippet;
  const nodes: Node[] = [];
  text.replace(/\r\n?/g, '\n').split('\n').forEach((line, index) => {
    if (index > 0) nodes.push(doc.createElement('br'));
    nodes.push(doc.createTextNode(line));
  });
  return nodes;
}

function newDocument(): Document {
  return document.implementation.createHTMLDocument('');
}

function paragraph(doc: Document, text: string): HTMLElement {
  const p = doc.createElement('p');
  p.textContent = text;
  return p;
}

/** A reply's body: an empty line to write on, then "On <date>, <name> wrote:" and the original in a blockquote. */
export function quoteForReply(message: MessageView, body: BodyView | null, locale?: string): string {
  const doc = newDocument();
  const root = doc.createElement('div');
  root.append(doc.createElement('p'));
  (root.firstChild as HTMLElement).append(doc.createElement('br'));
  const quote = doc.createElement('div');
  quote.className = 'tern-quote';
  const sender = message.from[0];
  const who = sender ? formatAddress(sender) : 'Unknown sender';
  quote.append(paragraph(doc, `On ${formatQuoteDate(message.date, locale)}, ${who} wrote:`));
  const blockquote = doc.createElement('blockquote');
  blockquote.setAttribute('type', 'cite');
  blockquote.append(...originalContent(doc, body, message, blockquote));
  quote.append(blockquote);
  root.append(quote);
  return root.innerHTML;
}

/** A forward's body: the original's headers block, then its body as it was. */
export function quoteForForward(message: MessageView, body: BodyView | null, locale?: string): string {
  const doc = newDocument();
  const root = doc.createElement('div');
  root.append(doc.createElement('p'));
  (root.firstChild as HTMLElement).append(doc.createElement('br'));
  const forwarded = doc.createElement('div');
  forwarded.className = 'tern-forward';
  const header = doc.createElement('div');
  header.className = 'tern-forward-header';
  const lines: [string, string][] = [
    ['From', message.from.map(formatAddress).join(', ')],
    ['Date', formatQuoteDate(message.date, locale)],
    ['Subject', message.subject],
    ['To', message.to.map(formatAddress).join(', ')],
  ];
  if (message.cc.length > 0) lines.push(['Cc', message.cc.map(formatAddress).join(', ')]);
  header.append(doc.createTextNode('---------- Forwarded message ---------'), doc.createElement('br'));
  for (const [label, value] of lines) {
    const strong = doc.createElement('b');
    strong.textContent = `${label}:`;
    header.append(strong, doc.createTextNode(` ${value}`), doc.createElement('br'));
  }
  forwarded.append(header, doc.createElement('br'));
  const original = doc.createElement('div');
  original.append(...originalContent(doc, body, message, original));
  forwarded.append(original);
  root.append(forwarded);
  return root.innerHTML;
}

export interface ReplyParams {
  readonly mode: 'reply' | 'replyAll' | 'forward';
  readonly message: MessageView;
  /** The original's body, when loaded (without it the snippet is quoted). */
  readonly body: BodyView | null;
  /** The user's addresses (all accounts and aliases): left out of reply-all. */
  readonly ownAddresses: readonly string[];
  /** Loads an attachment of the original, for forwarding. */
  readonly loadAttachment?: (attachmentIndex: number) => Promise<Blob>;
  readonly locale?: string;
}

/** Whether the original's HTML shows this part as an inline (`cid:`) image. */
function shownInline(part: { readonly contentId: string | null }, body: BodyView | null): boolean {
  const id = part.contentId?.trim().replace(/^<|>$/g, '').toLowerCase();
  const html = body?.html?.toLowerCase() ?? '';
  return Boolean(id) && (html.includes(`cid:${id}`) || html.includes(`cid:${encodeURIComponent(id!).toLowerCase()}`));
}

/** The composer's starting point for a reply, reply-all or forward of `message`. */
export function composeFromMessage(params: ReplyParams): ComposerInitial {
  const { mode, message, body } = params;
  if (mode === 'forward') {
    const parts = body?.attachments ?? message.attachments;
    const load = params.loadAttachment;
    return {
      mode,
      accountId: message.accountId,
      to: [],
      cc: [],
      bcc: [],
      subject: prefixedSubject(message.subject, 'Fwd'),
      html: quoteForForward(message, body, params.locale),
      // Real attachments travel along, and so do the inline images the body showed: in the
      // composer they are only their alt text (editor-html.ts). A name's bidi controls go:
      // the composer's list shows it as stored (shared/bidi-controls.ts).
      pendingAttachments: load
        ? parts
            .filter((part) => showsPaperclip(part) || shownInline(part, body))
            .map((part) => ({ fileName: withoutBidiControls(part.filename), size: part.size, contentType: part.contentType, load: () => load(part.index) }))
        : [],
    };
  }
  const { to, cc } = replyRecipients(message, mode, params.ownAddresses);
  return {
    mode,
    accountId: message.accountId,
    to,
    cc,
    bcc: [],
    subject: prefixedSubject(message.subject, 'Re'),
    html: quoteForReply(message, body, params.locale),
    inReplyToMessageId: message.id,
  };
}

/** A `mailto:` link (RFC 6068, mailto-uri.ts): to, cc, bcc, subject and body. */
export function composeFromMailto(href: string, accountId: string): ComposerInitial {
  const fields = parseMailto(href);
  const doc = newDocument();
  const root = doc.createElement('div');
  for (const line of fields.body.split('\n')) {
    const p = paragraph(doc, line);
    if (line === '') p.append(doc.createElement('br'));
    root.append(p);
  }
  return {
    mode: 'new',
    accountId,
    to: [...fields.to],
    cc: [...fields.cc],
    bcc: [...fields.bcc],
    subject: fields.subject,
    html: fields.body ? root.innerHTML : '',
  };
}

/** An empty message from `accountId`. */
export function composeNew(accountId: string): ComposerInitial {
  return { mode: 'new', accountId, to: [], cc: [], bcc: [], subject: '', html: '' };
}

export { displayName as addressDisplayName, formatAddress };

/** A discarded draft as it was, to open again (the composer's Discard, then Undo): its content and its finished uploads. */
export function composeAgain(mode: ComposeMode, draft: DraftInput, uploaded: readonly UploadedAttachment[]): ComposerInitial {
  return {
    mode,
    accountId: draft.accountId,
    to: draft.to,
    cc: draft.cc,
    bcc: draft.bcc,
    subject: draft.subject,
    html: draft.html,
    ...(draft.inReplyToMessageId ? { inReplyToMessageId: draft.inReplyToMessageId } : {}),
    attachments: uploaded,
  };
}
