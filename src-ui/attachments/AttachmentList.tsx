/** The attachments under a message: tiles with size, preview (allowed types) and download. */
import { useEffect, useState } from 'react';
import type { AttachmentSummary } from '../../shared/api/mail';
import { isInlineImage } from '../../shared/attachment-rules';
import { Icon } from '../kit/icons';
import { attachmentFacts, attachmentsSummary, listedAttachments, type AttachmentFacts } from './attachment-facts';
import { AttachmentPreview } from './AttachmentPreview';
import { saveBlob } from './object-urls';
import { useLocale, useT } from '../kit/i18n';

export interface AttachmentListProps {
  /** The message's parts; only those earning the paperclip are listed. */
  readonly attachments: readonly AttachmentSummary[];
  /** The bytes of one part (through the worker, which holds the session), for downloads. */
  readonly load: (attachment: AttachmentSummary) => Promise<Blob>;
  /**
   * A sandboxed gateway address showing one previewable part (thumbnails, the viewer, a new
   * tab). Never a `blob:` of the app's origin: an SVG opened from there would run its script
   * with the app's storage in reach (issue point 12, DESIGN §5).
   */
  readonly preview: (attachment: AttachmentSummary) => Promise<string>;
}

function KindIcon({ facts }: { facts: AttachmentFacts }) {
  switch (facts.preview) {
    case 'image':
      return <Icon name="image" size={22} />;
    case 'video':
      return <Icon name="film" size={22} />;
    case 'audio':
      return <Icon name="music" size={22} />;
    case 'pdf':
      return <Icon name="pdf" size={22} />;
    default:
      return <Icon name="file" size={22} />;
  }
}

/** A small picture of an image attachment (spec §5 inline-image rule: common types, 512 B to 30 MB). */
function Thumbnail({ facts, preview }: { facts: AttachmentFacts; preview: AttachmentListProps['preview'] }) {
  const [url, setUrl] = useState<string | null>(null);
  const wanted = facts.preview === 'image' && facts.previewType !== null && isInlineImage(facts.attachment);
  const { attachment } = facts;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    preview(attachment).then(
      (address) => live && setUrl(address),
      () => undefined, // the icon stays; opening the preview reports the error
    );
    return () => {
      live = false;
    };
  }, [wanted, attachment, preview]);
  if (url) return <img className="tern-att-thumb" src={url} alt="" />;
  return (
    <span className={`tern-att-icon tern-att-icon-${facts.preview ?? 'file'}`}>
      <KindIcon facts={facts} />
    </span>
  );
}

export function AttachmentList({ attachments, load, preview }: AttachmentListProps) {
  const t = useT();
  const locale = useLocale();
  const listed = listedAttachments(attachments);
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (listed.length === 0) return null;
  const facts = listed.map((attachment) => attachmentFacts(attachment, locale));
  const previewable = facts.filter((item) => item.preview !== null);

  const download = async (item: AttachmentFacts) => {
    setBusy(item.attachment.index);
    setError(null);
    try {
      saveBlob(await load(item.attachment), item.name);
    } catch (cause) {
      setError(`“${item.name}” could not be downloaded. ${cause instanceof Error ? cause.message : ''}`.trim());
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="tern-attachments" aria-label={t('attachments.attachments')}>
      <h4 className="tern-att-heading">
        <Icon name="paperclip" size={15} /> {attachmentsSummary(listed, locale)}
      </h4>
      <ul className="tern-att-list">
        {facts.map((item) => {
          const canPreview = item.preview !== null;
          return (
            <li key={item.attachment.index} className="tern-att-tile">
              <button
                type="button"
                className="tern-att-main"
                aria-label={t(canPreview ? 'attachments.previewNamed' : 'attachments.downloadNamed', { name: item.name, size: item.sizeLabel })}
                aria-busy={!canPreview && busy === item.attachment.index}
                onClick={() => (canPreview ? setPreviewIndex(previewable.indexOf(item)) : void download(item))}
              >
                <Thumbnail facts={item} preview={preview} />
                <span className="tern-att-text">
                  {/* <bdi>: a right-to-left name cannot reorder the size and type around it. */}
                  <bdi className="tern-att-name" title={item.name}>
                    {item.name}
                  </bdi>
                  <span className="tern-att-meta">
                    {item.badge} · {item.sizeLabel}
                  </span>
                </span>
              </button>
              {canPreview && (
                <span className="tern-att-actions">
                  <button
                    type="button"
                    className="tern-icon-button"
                    aria-label={t('attachments.downloadName', { name: item.name })}
                    title={t('attachments.download')}
                    aria-busy={busy === item.attachment.index}
                    onClick={() => void download(item)}
                  >
                    <Icon name="download" />
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {error && (
        <p className="tern-att-error" role="alert">
          {error}
        </p>
      )}
      {previewIndex !== null && previewable[previewIndex] && (
        <AttachmentPreview
          items={previewable}
          index={previewIndex}
          preview={preview}
          onIndexChange={setPreviewIndex}
          onDownload={(item) => void download(item)}
          onClose={() => setPreviewIndex(null)}
        />
      )}
    </section>
  );
}
