/**
 * The composer's attachments: name and size, a progress bar while one uploads (named
 * after the file, with its percentage as aria-valuenow), the reason when one failed or was
 * refused, and Cancel, Retry and Remove.
 */
import { formatFileSize } from '../../shared/file-size';
import { Icon } from '../kit/icons';
import type { AttachmentUploads } from './use-attachment-uploads';
import { useLocale, useT } from '../kit/i18n';

const percentOf = (progress: number) => Math.round(progress * 100);

export function UploadList({ uploads }: { uploads: AttachmentUploads }) {
  const t = useT();
  const locale = useLocale();
  if (uploads.items.length === 0) return null;
  return (
    <ul className="tern-upload-list" aria-label={t('composer.attachments')}>
      {uploads.items.map((item) => {
        const error = item.status === 'rejected' || item.status === 'failed';
        const percent = percentOf(item.progress);
        // Every byte sent, the answer not in yet: the gateway is storing the file.
        const finishing = item.status === 'uploading' && percent === 100;
        return (
          <li key={item.key} className={`tern-upload is-${item.status}`}>
            <span className="tern-upload-icon">{error ? <Icon name="alert" /> : <Icon name="paperclip" size={16} />}</span>
            <span className="tern-upload-text">
              <span className="tern-upload-name" title={item.fileName}>
                {item.fileName}
              </span>
              <span className="tern-upload-meta">
                {item.status !== 'uploading'
                  ? formatFileSize(item.size, locale)
                  : finishing
                    ? t('composer.finishing', { size: formatFileSize(item.size, locale) })
                    : t('composer.uploadedOf', { done: formatFileSize(item.size * item.progress, locale), size: formatFileSize(item.size, locale) })}
              </span>
              {item.message && (
                <span className={`tern-upload-message${error ? ' is-error' : ''}`} role={error ? 'alert' : undefined}>
                  {item.message}
                </span>
              )}
            </span>
            {item.status === 'uploading' && (
              <span
                className="tern-upload-progress"
                role="progressbar"
                aria-label={t('composer.uploadingNamed', { name: item.fileName })}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                aria-valuetext={`${percent}%`}
              >
                <span className="tern-upload-progress-value" style={{ width: `${percent}%` }} />
              </span>
            )}
            {item.status === 'failed' && uploads.canRetry(item.key) && (
              <button type="button" className="tern-link-button" aria-label={t('composer.retryNamed', { name: item.fileName })} onClick={() => uploads.retry(item.key)}>
                {t('composer.retry')}
              </button>
            )}
            <button
              type="button"
              className="tern-icon-button"
              aria-label={item.status === 'uploading' ? t('composer.cancelNamed', { name: item.fileName }) : t('composer.removeNamed', { name: item.fileName })}
              title={item.status === 'uploading' ? t('composer.cancelUpload') : t('composer.remove')}
              onClick={() => uploads.remove(item.key)}
            >
              <Icon name="close" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
