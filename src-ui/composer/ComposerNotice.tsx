/** The composer's line of news above its footer: why a send or save failed (with the mail server's own words), or that a send was undone. */
import { useT } from '../kit/i18n';

export interface ComposerNoticeText {
  readonly kind: 'error' | 'info';
  readonly text: string;
  /** The mail server's answer, quoted under the text. */
  readonly detail?: string;
  /** A way forward, as a button after the text (e.g. insert a template with its empty fields). */
  readonly action?: { readonly label: string; readonly run: () => void };
}

export function ComposerNotice({ notice }: { notice: ComposerNoticeText }) {
  const t = useT();
  return (
    <p className={`tern-composer-notice is-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      {notice.text}
      {notice.detail && (
        <>
          <br />
          <span className="tern-server-reply">{t('app.serverAnswered', { reply: notice.detail })}</span>
        </>
      )}
      {notice.action && (
        <>
          {' '}
          <button type="button" className="tern-link-button" onClick={notice.action.run}>
            {notice.action.label}
          </button>
        </>
      )}
    </p>
  );
}
