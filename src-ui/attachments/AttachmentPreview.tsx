/**
 * The attachment viewer: a modal dialog showing one previewable part (spec §5 preview
 * types), with previous/next between the message's previewable parts.
 *
 * Bytes come as a Blob and are shown through an object URL re-typed from the allow-list
 * (object-urls.ts). Images, video and audio are media elements: they cannot run script
 * whatever the bytes hold (an SVG in an <img> is inert).
 *
 * PDF is shown in a frame without a sandbox. Chromium refuses to render a PDF inside any
 * sandboxed frame (it shows an error page instead; checked with Debian's Chromium), and
 * `<embed>` is blocked by the app's `object-src 'none'`. This is safe because the frame's
 * document is not ours: the Blob's type is `application/pdf`, set by us, so the browser
 * hands it to its PDF viewer, which runs in its own isolated origin (an extension page in
 * Chromium, pdf.js in Firefox), never as a page of the app's origin.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { TernError } from '../../shared/errors';
import type { AttachmentSummary } from '../../shared/api/mail';
import { keepTabInside } from '../app/focus-trap';
import { CloseIcon, DownloadIcon } from '../conversation/icons';
import type { AttachmentFacts } from './attachment-facts';
import { typedObjectUrl } from './object-urls';

export interface AttachmentPreviewProps {
  /** The message's previewable parts. */
  readonly items: readonly AttachmentFacts[];
  readonly index: number;
  readonly load: (attachment: AttachmentSummary) => Promise<Blob>;
  readonly onIndexChange: (index: number) => void;
  readonly onDownload: (item: AttachmentFacts) => void;
  readonly onClose: () => void;
}

type Loaded = { readonly state: 'loading' } | { readonly state: 'ready'; readonly url: string } | { readonly state: 'failed'; readonly message: string };

export function AttachmentPreview({ items, index, load, onIndexChange, onDownload, onClose }: AttachmentPreviewProps) {
  const item = items[index] as AttachmentFacts;
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  // Focus moves into the dialog and back to where it was when it closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    return () => before?.focus?.();
  }, []);

  const { attachment, previewType } = item;
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    setLoaded({ state: 'loading' });
    load(attachment).then(
      (blob) => {
        if (!live || previewType === null) return;
        url = typedObjectUrl(blob, previewType);
        setLoaded({ state: 'ready', url });
      },
      (cause: unknown) => live && setLoaded({ state: 'failed', message: TernError.from(cause).message }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [attachment, previewType, load]);

  const go = (delta: number) => {
    if (items.length > 1) onIndexChange((index + delta + items.length) % items.length);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowRight' && !(event.target instanceof HTMLMediaElement)) go(1);
    else if (event.key === 'ArrowLeft' && !(event.target instanceof HTMLMediaElement)) go(-1);
    else keepTabInside(event, dialogRef.current, 'button, [href], video, audio, iframe, [tabindex]:not([tabindex="-1"])');
  };

  const content = () => {
    if (loaded.state === 'loading') return <div className="tern-preview-status" role="status">Loading <bdi>{item.name}</bdi>…</div>;
    if (loaded.state === 'failed') return <div className="tern-preview-status" role="alert"><bdi>{item.name}</bdi> could not be opened. {loaded.message}</div>;
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
    <div className="tern-preview-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={dialogRef} className="tern-preview" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <header className="tern-preview-header">
          <h2 id={titleId} className="tern-preview-title" title={item.name}>
            <bdi>{item.name}</bdi>
          </h2>
          <span className="tern-preview-meta">{item.sizeLabel}</span>
          {items.length > 1 && (
            <span className="tern-preview-nav">
              <button type="button" className="tern-icon-button" aria-label="Previous attachment" onClick={() => go(-1)}>
                ‹
              </button>
              <span aria-live="polite">
                {index + 1} of {items.length}
              </span>
              <button type="button" className="tern-icon-button" aria-label="Next attachment" onClick={() => go(1)}>
                ›
              </button>
            </span>
          )}
          <button type="button" className="tern-button" onClick={() => onDownload(item)}>
            <DownloadIcon /> Download
          </button>
          <button ref={closeRef} type="button" className="tern-icon-button" aria-label="Close preview" onClick={onClose}>
            <CloseIcon />
          </button>
        </header>
        <div className={`tern-preview-body tern-preview-body-${item.preview ?? 'none'}`}>{content()}</div>
      </div>
    </div>,
    document.body,
  );
}
