/** The composer's footer: Send, Attach files, how many files are uploading, a failed save with Retry, and Discard at the far end. */
import { useRef, type ReactNode } from 'react';
import { Icon } from '../kit/icons';
import type { Schedule } from '../../shared/send-time';
import type { SaveIndicator } from './save-indicator';
import { SendLater } from './SendLater';
import { useT } from '../kit/i18n';

export function ComposerFooter(props: {
  sending: boolean;
  uploadingCount: number;
  indicator: SaveIndicator;
  onAddFiles: (files: readonly File[]) => void;
  onRetrySave: () => void;
  /** Send later at this time (the gateway sends it; no undo window). */
  onSchedule: (schedule: Schedule) => void;
  /** Without it there is no Discard button. */
  onDiscard: (() => void) | undefined;
  /** The writing tools beside Attach (templates, read receipt, emoji), when the host gives them. */
  tools?: ReactNode;
}) {
  const t = useT();
  const { sending, uploadingCount, indicator, onDiscard } = props;
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <footer className="tern-composer-footer">
      <button type="submit" className="tern-button tern-button-primary tern-send" disabled={sending} title={t('composer.sendCtrlEnter')}>
        <Icon name="send" /> {sending ? t('composer.sending') : t('composer.send')}
      </button>
      <SendLater disabled={sending} onSchedule={props.onSchedule} />
      <button type="button" className="tern-icon-button" aria-label={t('composer.attachFiles')} title={t('composer.attachFiles')} onClick={() => fileInput.current?.click()}>
        <Icon name="paperclip" />
      </button>
      {props.tools}
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label={t('composer.chooseFilesToAttach')}
        onChange={(event) => {
          props.onAddFiles(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      {uploadingCount > 0 && <span className="tern-footer-hint">{t('composer.uploadingFiles', { count: uploadingCount })}</span>}
      {indicator.kind === 'failed' && (
        // Refused here or given up by the engine: the text is still in the composer, saved again on Retry.
        <span className="tern-footer-hint is-error">
          {t('composer.draftNotSaved', { reason: indicator.reason })}{' '}
          <button type="button" className="tern-link-button" onClick={props.onRetrySave}>
            {t('composer.retry')}
          </button>
        </span>
      )}
      {/* At the far end, away from Send (inline: the composer's styles are another change's). */}
      {onDiscard && (
        <button type="button" className="tern-icon-button tern-discard" style={{ marginInlineStart: 'auto' }} aria-label={t('composer.discardDraft')} aria-keyshortcuts="Control+Shift+D" title={t('composer.discardDraftCtrlShift')} onClick={onDiscard}>
          <Icon name="trash" />
        </button>
      )}
    </footer>
  );
}
