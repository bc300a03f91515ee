/**
 * The composer's attachments: name and size, a progress bar while one uploads (named
 * after the file, with its percentage as aria-valuenow), the reason when one failed or was
 * refused, and Cancel, Retry and Remove.
 */
import { formatFileSize } from '../../shared/file-size';
import { Icon } from '../kit/icons';
import type { AttachmentUploads } from './use-attachment-uploads';

const percentOf = (progress: number) => Math.round(progress * 100);

export function UploadList({ uploads }: { uploads: AttachmentUploads }) {
  if (uploads.items.length === 0) return null;
  return (
    <ul className="tern-upload-list" aria-label="Attachments">
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
                  ? formatFileSize(item.size)
                  : finishing
                    ? `${formatFileSize(item.size)}, finishing…`
                    : `${formatFileSize(item.size * item.progress)} of ${formatFileSize(item.size)}`}
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
                aria-label={`Uploading ${item.fileName}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                aria-valuetext={`${percent}%`}
              >
                <span className="tern-upload-progress-value" style={{ width: `${percent}%` }} />
              </span>
            )}
            {item.status === 'failed' && uploads.canRetry(item.key) && (
              <button type="button" className="tern-link-button" aria-label={`Retry uploading ${item.fileName}`} onClick={() => uploads.retry(item.key)}>
                Retry
              </button>
            )}
            <button
              type="button"
              className="tern-icon-button"
              aria-label={item.status === 'uploading' ? `Cancel uploading ${item.fileName}` : `Remove ${item.fileName}`}
              title={item.status === 'uploading' ? 'Cancel upload' : 'Remove'}
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
