/**
 * The attachment viewer: a modal dialog showing one previewable part (spec §5 preview
 * types), with previous/next between the message's previewable parts.
 *
 * What it shows comes from the gateway, never from a `blob:` of the app's origin (issue
 * point 12, DESIGN §5): the worker asks for a short-lived link to the one part
 * (src-server/reading/preview-links.ts), and the gateway answers it with
 * `Content-Security-Policy: sandbox`, `nosniff` and a type from the preview allow-list.
 * Whatever the bytes hold, the document they make has an opaque origin and runs no
 * script: an SVG opened in a new tab ("Open in new tab", or the browser's own "Open image
 * in new tab") cannot reach the app's storage or its window.
 *
 * PDF is shown in a frame without a `sandbox` attribute: Chromium refuses to render a PDF
 * inside a sandboxed frame (it shows an error page instead), and `<embed>` is blocked by
 * the app's `object-src 'none'`. The response's own CSP sandbox is what confines it, and
 * Chromium's PDF viewer renders under that (checked with Debian's Chromium).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { TernError } from '../../shared/errors';
import type { AttachmentSummary } from '../../shared/api/mail';
import { Icon } from '../kit/icons';
import { useModalDialog } from '../kit/use-modal-dialog';
import type { AttachmentFacts } from './attachment-facts';
import { errorText, useT } from '../kit/i18n';

/**
 * How often the new-tab link is renewed while the viewer stays open: the gateway's links
 * open their part for 5 minutes (src-server/reading/preview-links.ts), and a link pressed
 * after that would answer ExpiredLink. What is on screen already loaded; only the link moves.
 */
export const NEW_TAB_LINK_RENEW_MS = 4 * 60_000;

export interface AttachmentPreviewProps {
  /** The message's previewable parts. */
  readonly items: readonly AttachmentFacts[];
  readonly index: number;
  /** The part's sandboxed gateway address (AttachmentList's `preview`). */
  readonly preview: (attachment: AttachmentSummary) => Promise<string>;
  readonly onIndexChange: (index: number) => void;
  readonly onDownload: (item: AttachmentFacts) => void;
  readonly onClose: () => void;
}

type Loaded = { readonly state: 'loading' } | { readonly state: 'ready'; readonly url: string } | { readonly state: 'failed'; readonly message: string };

export function AttachmentPreview({ items, index, preview, onIndexChange, onDownload, onClose }: AttachmentPreviewProps) {
  const t = useT();
  const item = items[index] as AttachmentFacts;
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [newTabUrl, setNewTabUrl] = useState<string | null>(null);

  // A native modal dialog: the page behind is inert; the focus goes to Close, and back to where it was when it closes.
  useModalDialog(dialogRef, (dialog) => dialog.querySelector<HTMLElement>('.tern-preview-close'));

  const { attachment } = item;
  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    setNewTabUrl(null);
    preview(attachment).then(
      (url) => {
        if (!live) return;
        setLoaded({ state: 'ready', url });
        setNewTabUrl(url);
      },
      (cause: unknown) => live && setLoaded({ state: 'failed', message: errorText(t, TernError.from(cause)) }),
    );
    const renew = setInterval(() => {
      preview(attachment).then(
        (url) => live && setNewTabUrl(url),
        () => undefined, // the old link stays; pressed late, the new tab says it expired
      );
    }, NEW_TAB_LINK_RENEW_MS);
    return () => {
      live = false;
      clearInterval(renew);
    };
  }, [attachment, preview]);

  const go = (delta: number) => {
    if (items.length > 1) onIndexChange((index + delta + items.length) % items.length);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowRight' && !(event.target instanceof HTMLMediaElement)) go(1);
    else if (event.key === 'ArrowLeft' && !(event.target instanceof HTMLMediaElement)) go(-1);
  };

  const content = () => {
    if (loaded.state === 'loading') return <div className="tern-preview-status" role="status">{t('attachments.loading')} <bdi>{item.name}</bdi>…</div>;
    if (loaded.state === 'failed') return <div className="tern-preview-status" role="alert"><bdi>{item.name}</bdi> {t('attachments.couldNotBeOpened')} {loaded.message}</div>;
    switch (item.preview) {
      case 'image':
        return <img className="tern-preview-image" src={loaded.url} alt={item.name} />;
      case 'video':
        return <video className="tern-preview-video" src={loaded.url} controls aria-label={item.name} />;
      case 'audio':
        return <audio className="tern-preview-audio" src={loaded.url} controls aria-label={item.name} />;
      case 'pdf':
        return <iframe className="tern-preview-pdf" src={loaded.url} title={item.name} referrerPolicy="no-referrer" />;
      default:
        return null;
    }
  };

  return createPortal(
    // The dialog element is the whole viewport (the dimmed backdrop around the viewer's box): a press on it outside the box closes.
    <dialog
      ref={dialogRef}
      className="tern-preview-backdrop"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      onMouseDown={(event) => event.target === event.currentTarget && onClose()}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={onKeyDown}
    >
      <div className="tern-preview">
        <header className="tern-preview-header">
          <h2 id={titleId} className="tern-preview-title" title={item.name}>
            <bdi>{item.name}</bdi>
          </h2>
          <span className="tern-preview-meta">{item.sizeLabel}</span>
          {items.length > 1 && (
            <span className="tern-preview-nav">
              <button type="button" className="tern-icon-button" aria-label={t('attachments.previousAttachment')} onClick={() => go(-1)}>
                ‹
              </button>
              <span aria-live="polite">
                {t('attachments.position', { index: index + 1, count: items.length })}
              </span>
              <button type="button" className="tern-icon-button" aria-label={t('attachments.nextAttachment')} onClick={() => go(1)}>
                ›
              </button>
            </span>
          )}
          {loaded.state === 'ready' && newTabUrl && (
            // The gateway's sandboxed address: the new tab gets an opaque origin, no script, no opener.
            <a className="tern-button" href={newTabUrl} target="_blank" rel="noopener noreferrer" aria-label={t('attachments.openNamedInNewTab', { name: item.name })}>
              {t('attachments.openInNewTab')}
            </a>
          )}
          <button type="button" className="tern-button" onClick={() => onDownload(item)}>
            <Icon name="download" /> {t('attachments.download')}
          </button>
          <button type="button" className="tern-icon-button tern-preview-close" aria-label={t('attachments.closePreview')} onClick={onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div className={`tern-preview-body tern-preview-body-${item.preview ?? 'none'}`}>{content()}</div>
      </div>
    </dialog>,
    document.body,
  );
}
