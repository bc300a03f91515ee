/**
 * Shows the pipeline's document in a sandboxed frame (frame-sandbox.ts says why each
 * token is there) and keeps the frame as tall as its content, so the conversation
 * scrolls as one page instead of nesting scroll bars.
 */
import { useEffect, useRef } from 'react';
import { grantsScripts, MAIL_FRAME_SANDBOX } from './frame-sandbox';

export interface MailFrameProps {
  /** The frame document from `renderMailHtml`. */
  readonly srcdoc: string;
  /** The frame's accessible name, e.g. "Message from Alice". */
  readonly title: string;
  /** A `mailto:` link in the mail was clicked (the app composes instead of leaving). */
  readonly onMailto?: (href: string) => void;
}

/** Smallest height while the document loads, to avoid a jump from zero. */
const INITIAL_HEIGHT = 48;

interface ElementLike {
  closest?: (selector: string) => { getAttribute(name: string): string | null } | null;
}

export function MailFrame({ srcdoc, title, onMailto }: MailFrameProps) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const mailtoRef = useRef(onMailto);
  mailtoRef.current = onMailto;

  if (grantsScripts(MAIL_FRAME_SANDBOX)) throw new Error('The mail frame must never allow scripts.');

  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    let detach: (() => void) | undefined;
    let lastWidth = -1;

    const measure = () => {
      const doc = frame.contentDocument;
      if (!doc?.documentElement) return;
      // Collapse first so the document reports its own height, not the frame's
      // (and rules like `min-height: 100vh` cannot make the frame grow forever).
      frame.style.height = '0px';
      const height = Math.max(doc.documentElement.scrollHeight, doc.body?.scrollHeight ?? 0);
      frame.style.height = `${Math.ceil(height) + 1}px`;
    };

    const attach = () => {
      detach?.();
      const doc = frame.contentDocument;
      if (!doc) return;
      measure();
      // Images and fonts arrive after load; their load events do not bubble, so listen in capture.
      const onResourceLoad = () => measure();
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
      doc.addEventListener('click', onClick);
      const resize = typeof ResizeObserver === 'function'
        ? new ResizeObserver((entries) => {
            const width = entries[0]?.contentRect.width ?? 0;
            if (width !== lastWidth) {
              lastWidth = width;
              measure();
            }
          })
        : undefined;
      resize?.observe(frame);
      detach = () => {
        doc.removeEventListener('load', onResourceLoad, true);
        doc.removeEventListener('click', onClick);
        resize?.disconnect();
      };
    };

    frame.addEventListener('load', attach);
    if (frame.contentDocument?.readyState === 'complete' && frame.contentDocument.body?.classList.contains('tern-mail-root')) attach();
    return () => {
      frame.removeEventListener('load', attach);
      detach?.();
    };
  }, [srcdoc]);

  return (
    <iframe
      ref={frameRef}
      className="tern-mail-frame"
      title={title}
      sandbox={MAIL_FRAME_SANDBOX}
      srcDoc={srcdoc}
      referrerPolicy="no-referrer"
      style={{ height: INITIAL_HEIGHT }}
    />
  );
}
