/** The composer's footer: Send, Attach files, how many files are uploading, a failed save with Retry, and Discard at the far end. */
import { useRef } from 'react';
import { Icon } from '../kit/icons';
import type { SaveIndicator } from './save-indicator';

export function ComposerFooter(props: {
  sending: boolean;
  uploadingCount: number;
  indicator: SaveIndicator;
  onAddFiles: (files: readonly File[]) => void;
  onRetrySave: () => void;
  /** Without it there is no Discard button. */
  onDiscard: (() => void) | undefined;
}) {
  const { sending, uploadingCount, indicator, onDiscard } = props;
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <footer className="tern-composer-footer">
      <button type="submit" className="tern-button tern-button-primary tern-send" disabled={sending} title="Send (Ctrl+Enter)">
        <Icon name="send" /> {sending ? 'Sending…' : 'Send'}
      </button>
      <button type="button" className="tern-icon-button" aria-label="Attach files" title="Attach files" onClick={() => fileInput.current?.click()}>
        <Icon name="paperclip" />
      </button>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label="Choose files to attach"
        onChange={(event) => {
          props.onAddFiles(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      {uploadingCount > 0 && <span className="tern-footer-hint">Uploading {uploadingCount === 1 ? '1 file' : `${uploadingCount} files`}…</span>}
      {indicator.kind === 'failed' && (
        // Refused here or given up by the engine: the text is still in the composer, saved again on Retry.
        <span className="tern-footer-hint is-error">
          Draft not saved: {indicator.reason}{' '}
          <button type="button" className="tern-link-button" onClick={props.onRetrySave}>
            Retry
          </button>
        </span>
      )}
      {/* At the far end, away from Send (inline: the composer's styles are another change's). */}
      {onDiscard && (
        <button type="button" className="tern-icon-button tern-discard" style={{ marginInlineStart: 'auto' }} aria-label="Discard draft" aria-keyshortcuts="Control+Shift+D" title="Discard draft (Ctrl+Shift+D)" onClick={onDiscard}>
          <Icon name="trash" />
        </button>
      )}
    </footer>
  );
}
