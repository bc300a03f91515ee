/** The composer's line of news above its footer: why a send or save failed (with the mail server's own words), or that a send was undone. */

export interface ComposerNoticeText {
  readonly kind: 'error' | 'info';
  readonly text: string;
  /** The mail server's answer, quoted under the text. */
  readonly detail?: string;
}

export function ComposerNotice({ notice }: { notice: ComposerNoticeText }) {
  return (
    <p className={`tern-composer-notice is-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      {notice.text}
      {notice.detail && (
        <>
          <br />
          <span className="tern-server-reply">The mail server answered: “{notice.detail}”</span>
        </>
      )}
    </p>
  );
}
