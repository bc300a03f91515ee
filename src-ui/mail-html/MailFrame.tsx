/**
 * Shows the pipeline's document in a sandboxed frame (frame-sandbox.ts says why each
 * token is there) and keeps the frame as tall as its content, so the conversation
 * scrolls as one page instead of nesting scroll bars; a mail wider than the frame is
 * zoomed out to fit it (frame-fit.ts), again whenever the frame's width or its content
 * changes (pictures arriving, or failing and becoming placeholders: broken-images.ts).
 * The frame's root follows the app's theme (frame-theme.ts) for mail without colours of
 * its own.
 *
 * The document is written into the frame's initial about:blank document (open, write,
 * close) rather than given as `srcdoc`: a srcdoc is a navigation, which goes through the
 * browser process and commits tens of milliseconds later (≈ 35 ms on the bench machine,
 * more on a slow one), so a cached message painted its frame a frame or two after the
 * rest of the conversation. Written, it is parsed at once, before the next paint. The
 * walls stay the same: the sandbox is on the frame before its first document exists (no
 * script runs in it; a written <script> is refused), the document's own CSP <meta> is
 * parsed first and applies to everything after it, and the page's CSP is inherited on
 * top. A document is written once: its CSP can only tighten later (a second <meta> adds
 * a policy, never lifts one), so a new document (remote images allowed) gets a new frame.
 * Where the frame's document cannot be reached (an environment that loads no frames),
 * `srcdoc` does the same the slow way.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import { replaceBrokenImage } from './broken-images';
import { fitFrameToWidth } from './frame-fit';
import { followAppTheme, watchAppTheme } from './frame-theme';
import { grantsScripts, MAIL_FRAME_SANDBOX } from './frame-sandbox';

export interface MailFrameProps {
  /** The frame document from `renderMailHtml`. */
  readonly srcdoc: string;
  /** The frame's accessible name, e.g. "Message from Alice". */
  readonly title: string;
  /** A `mailto:` link in the mail was clicked (the app composes instead of leaving). */
  readonly onMailto?: (href: string) => void;
  /** The mail sets no colours of its own: in the dark theme it is shown in the app's colours, not on white. */
  readonly plainColours?: boolean;
}

/** Smallest height while the document loads, to avoid a jump from zero. */
const INITIAL_HEIGHT = 48;

let frames = 0;

interface ElementLike {
  closest?: (selector: string) => { getAttribute(name: string): string | null } | null;
}

export function MailFrame({ srcdoc, title, onMailto, plainColours = false }: MailFrameProps) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  /** Decided once per frame: written into its document, or (no document reachable) given as srcdoc. */
  const writable = useRef<boolean | null>(null);
  const mailtoRef = useRef(onMailto);
  mailtoRef.current = onMailto;

  if (grantsScripts(MAIL_FRAME_SANDBOX)) throw new Error('The mail frame must never allow scripts.');
  // One frame element per document (see above): a new document remounts it.
  const frameKey = useMemo(() => ++frames, [srcdoc]);

  useLayoutEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    let detach: (() => void) | undefined;
    let lastWidth = -1;

    const measure = () => {
      const doc = frame.contentDocument;
      if (!doc?.documentElement) return;
      // Width first: zooming a too-wide mail out changes its height (frame-fit.ts).
      const scale = fitFrameToWidth(doc);
      // A zoomed body reports its scroll height unzoomed; the root's already has the zoom in it.
      const contentHeight = () => Math.max(doc.documentElement.scrollHeight, scale < 1 ? 0 : (doc.body?.scrollHeight ?? 0));
      // A document taller than the frame's first, small height reports its own height at
      // once. Otherwise collapse first, so the document reports its own height, not the
      // frame's (and rules like `min-height: 100vh` cannot make the frame grow forever);
      // each collapse costs a layout of the page.
      let height = frame.style.height === `${INITIAL_HEIGHT}px` ? contentHeight() : 0;
      if (height <= INITIAL_HEIGHT) {
        frame.style.height = '0px';
        height = contentHeight();
      }
      frame.style.height = `${Math.ceil(height) + 1}px`;
    };

    // Content that changes after the first layout (pictures arriving or failing, one after
    // another) is measured again once per animation frame, not once per picture.
    let pending = 0;
    const measureSoon = () => {
      if (typeof requestAnimationFrame !== 'function') return measure();
      if (pending === 0) pending = requestAnimationFrame(() => {
        pending = 0;
        measure();
      });
    };

    const attach = () => {
      detach?.();
      const doc = frame.contentDocument;
      if (!doc) return;
      followAppTheme(doc);
      // The observer below reports the frame once as soon as it observes it (after layout,
      // before the frame is painted): measuring here too cost two more forced layouts per body.
      if (typeof ResizeObserver !== 'function') measure();
      // Images arrive after load; their load and error events do not bubble, so listen in
      // capture. A failed picture becomes a placeholder that shrinks (broken-images.ts) and
      // the mail is fitted again: it may be narrower or wider than when first measured.
      const onResourceLoad = () => measureSoon();
      const onResourceError = (event: Event) => {
        replaceBrokenImage(event.target);
        measureSoon();
      };
      const onClick = (event: Event) => {
        const target = event.target as ElementLike | null;
        const link = typeof target?.closest === 'function' ? target.closest('a[href]') : null;
        const href = link?.getAttribute('href') ?? '';
        if (/^\s*mailto:/i.test(href) && mailtoRef.current) {
          event.preventDefault();
          mailtoRef.current(href.trim());
        }
      };
      doc.addEventListener('load', onResourceLoad, true);
      doc.addEventListener('error', onResourceError, true);
      doc.addEventListener('click', onClick);
      // The frame's width changing refits at once (before paint); the mail's own size
      // changing (its body) refits in the next frame — measuring changes the body's size
      // itself, so doing it inside the observer's callback would loop.
      const body = doc.body;
      let bodySeen = false;
      const resize = typeof ResizeObserver === 'function'
        ? new ResizeObserver((entries) => {
            for (const entry of entries) {
              if (entry.target === frame) {
                const width = entry.contentRect.width;
                if (width !== lastWidth) {
                  lastWidth = width;
                  measure();
                }
              } else if (bodySeen) measureSoon();
              else bodySeen = true; // its first report is the layout the frame's report measured
            }
          })
        : undefined;
      resize?.observe(frame);
      if (body) resize?.observe(body);
      const stopTheme = watchAppTheme(() => followAppTheme(doc));
      detach = () => {
        doc.removeEventListener('load', onResourceLoad, true);
        doc.removeEventListener('error', onResourceError, true);
        doc.removeEventListener('click', onClick);
        resize?.disconnect();
        stopTheme();
        if (pending !== 0) cancelAnimationFrame(pending);
        pending = 0;
      };
    };

    writable.current ??= frame.contentDocument !== null;
    const doc = writable.current ? frame.contentDocument : null;
    if (doc) {
      doc.open();
      doc.write(srcdoc);
      doc.close();
      attach();
    } else {
      frame.addEventListener('load', attach);
      frame.setAttribute('srcdoc', srcdoc);
    }
    return () => {
      frame.removeEventListener('load', attach);
      detach?.();
    };
  }, [srcdoc]);

  return (
    <iframe
      key={frameKey}
      ref={frameRef}
      className={plainColours ? 'tern-mail-frame is-plain' : 'tern-mail-frame'}
      title={title}
      sandbox={MAIL_FRAME_SANDBOX}
      referrerPolicy="no-referrer"
      style={{ height: INITIAL_HEIGHT }}
    />
  );
}
