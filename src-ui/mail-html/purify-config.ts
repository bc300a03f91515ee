/**
 * The one DOMPurify configuration for mail HTML (DESIGN §5): what the conversation view
 * shows and what the composer sends go through the same rules.
 *
 * Beyond DOMPurify's defaults (no scripts, no event handlers, no `javascript:`):
 *   - HTML only: SVG and MathML are where namespace-confusion mXSS lives, and mail needs neither;
 *   - no forms or form controls (phishing for passwords inside a message);
 *   - no `<base>` (it would re-point every relative link), no `<meta>` (refresh, CSP
 *     override), no `<link>` (remote stylesheets), no frames, objects or embeds;
 *   - no elements whose content parses differently when scripting is off
 *     (`noscript`, `noembed`, `noframes`, `xmp`, `plaintext`, `template`): the frame
 *     has scripting off and DOMPurify's parser has it off too, but the difference is a
 *     classic mXSS vector, so they go;
 *   - no `data-*` attributes from the sender, so the pipeline's own `data-tern-*` marks
 *     can be trusted;
 *   - `data:` URLs only as `<img src>` and only for image types (see `restrictDataUrls`).
 */
import createDOMPurify, { type Config, type DOMPurify, type WindowLike } from 'dompurify';

export const MAIL_FORBID_TAGS: readonly string[] = [
  'form', 'input', 'button', 'select', 'option', 'optgroup', 'textarea', 'datalist', 'output', 'fieldset', 'label',
  'base', 'meta', 'link', 'title',
  'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'fencedframe',
  'script', 'noscript', 'noembed', 'noframes', 'template', 'xmp', 'plaintext', 'dialog',
  'svg', 'math',
];

export const MAIL_FORBID_ATTR: readonly string[] = [
  'srcdoc', 'action', 'formaction', 'ping', 'http-equiv', 'autofocus', 'contenteditable', 'popover', 'popovertarget',
  'is', 'xmlns', 'nonce', 'integrity', 'crossorigin', 'referrerpolicy', 'loading', 'fetchpriority',
];

/** Schemes a mail may link or point to; anything else (javascript:, vbscript:, file:, …) is dropped. */
export const MAIL_ALLOWED_URI = /^(?:(?:https?|mailto|tel|cid):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** Image types a `data:` URL may carry in `<img src>`. */
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|bmp|avif|x-icon|vnd\.microsoft\.icon|svg\+xml)[;,]/i;

const URL_ATTRIBUTES = ['src', 'srcset', 'href', 'background', 'poster', 'cite', 'longdesc', 'usemap', 'lowsrc', 'dynsrc'];

/** The shared base of both configurations below. */
export const MAIL_PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [...MAIL_FORBID_TAGS],
  FORBID_ATTR: [...MAIL_FORBID_ATTR],
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOWED_URI_REGEXP: MAIL_ALLOWED_URI,
  SAFE_FOR_XML: true,
} as const satisfies Config;

/**
 * `data:` is allowed by DOMPurify on media elements; mail may only use it for inline
 * images (`<img src="data:image/png…">`), never as a link, media source or background.
 */
function restrictDataUrls(node: Element): void {
  if (typeof node.getAttribute !== 'function') return;
  for (const name of URL_ATTRIBUTES) {
    const value = node.getAttribute(name);
    if (value === null || !/^\s*data:/i.test(value)) continue;
    const inlineImage = node.nodeName === 'IMG' && name === 'src' && DATA_IMAGE.test(value.trim());
    if (!inlineImage) node.removeAttribute(name);
  }
}

/**
 * A DOMPurify instance of its own with our hook, so other code using DOMPurify's global
 * instance neither sees nor disturbs it. Pass a window for tests or another realm.
 */
export function createMailPurifier(win: WindowLike = window): DOMPurify {
  const purifier = createDOMPurify(win);
  purifier.addHook('afterSanitizeAttributes', restrictDataUrls);
  return purifier;
}

let shared: DOMPurify | undefined;
/** The page's mail purifier, made on first use. */
export function mailPurifier(): DOMPurify {
  shared ??= createMailPurifier();
  return shared;
}
