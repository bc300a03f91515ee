/**
 * The HTML mail pipeline (STYLE item 12, DESIGN §5): sanitise, then small pure DOM
 * transforms on the sanitised tree, one per concern, then one serialisation for the
 * sandboxed frame. Each step has its own file and its own test.
 */
import type { DOMPurify } from 'dompurify';
import { inlineCidImages } from './cid-images';
import { breakLongRuns, fitImagesToWidth } from './fit-width';
import { buildFrameDocument, imageProxySource, MAIL_ROOT_CLASS } from './frame-document';
import { rewriteLinks } from './links';
import { declaresOwnColours } from './own-colours';
import { blockRemoteContent } from './remote-content';
import { sanitizeMailHtml } from './sanitize-html';
import { scopeMailStyles } from './scope-styles';

export interface MailHtmlInput {
  readonly html: string;
  /** `BodyView.inlineImages`: cid → object or data URL. */
  readonly inlineImages: Readonly<Record<string, string>>;
  /**
   * null: remote content blocked. Allowed (for this message or its sender): each remote URL →
   * the gateway's image proxy address for it (MailQueryService.proxyRemoteImages).
   */
  readonly proxiedImages: Readonly<Record<string, string>> | null;
}

export interface RenderedMailHtml {
  /** The frame's whole document, for `srcdoc`. */
  readonly srcdoc: string;
  /** Remote references blocked (0 when allowed). */
  readonly blockedRemote: number;
  /** `cid:` references with no inline part. */
  readonly missingInline: readonly string[];
  /** Remote references, blocked or allowed (the "always shown" line counts them). */
  readonly remote: number;
  /** The remote URLs, once each: what to ask the gateway to sign when the person allows them. */
  readonly remoteUrls: readonly string[];
  /** The mail sets no colours of its own: in the dark theme it takes the app's (own-colours.ts). */
  readonly plainColours: boolean;
}

export function renderMailHtml(input: MailHtmlInput, purifier?: DOMPurify): RenderedMailHtml {
  const doc = sanitizeMailHtml(input.html, purifier);
  const { missing } = inlineCidImages(doc, input.inlineImages);
  const { blocked, remote, remoteUrls } = blockRemoteContent(doc, { proxied: input.proxiedImages });
  rewriteLinks(doc);
  fitImagesToWidth(doc);
  breakLongRuns(doc);
  scopeMailStyles(doc, { scope: `.${MAIL_ROOT_CLASS}` });
  const plainColours = !declaresOwnColours(doc);
  const srcdoc = buildFrameDocument(doc, { imageProxy: imageProxySource(input.proxiedImages), plainColours });
  return { srcdoc, blockedRemote: blocked, missingInline: missing, remote, remoteUrls, plainColours };
}
