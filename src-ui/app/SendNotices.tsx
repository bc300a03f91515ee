/**
 * Sends the person must hear about, from the engine's database (they outlive a reload and
 * show in every tab until dismissed): "may have been sent" with Check Sent and Send again,
 * "not sent" with Open draft, "sent, but no copy in Sent". Shown with the toasts, but never
 * timed out: each goes only when the person acts on it. Their actions go on a row of their
 * own under the text, so the text keeps the toast's width on a phone (beside it, it was a
 * column of one word). The few styles are inline: app/toasts.css draws the toast.
 */
import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useState, type CSSProperties } from 'react';
import { TernError } from '../../shared/errors';
import type { SendNotice } from '../../shared/worker-mail-api';
import { composerInitialOfDraft } from '../composer/draft-initial';
import { useMailActions } from '../state/actions-context';
import { composerAtom, foldersAtom, sendNoticesAtom } from '../state/atoms';
import { Icon } from '../kit/icons';
import { sendNoticeText } from './send-notice-text';

const LAYOUT = {
  notice: { flexWrap: 'wrap', alignItems: 'flex-start', rowGap: 6 },
  text: { flex: '1 1 0', minWidth: 0, display: 'flex', flexDirection: 'column', gap: 4, overflowWrap: 'anywhere' },
  reply: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12, opacity: 0.9 },
  actions: { flexBasis: '100%', display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: '4px 8px' },
} as const satisfies Record<string, CSSProperties>;

/** The undo window of a "Send again", as the composer's own send. */
const SEND_AGAIN_DELAY_MS = 5_000;

function NoticeView({ notice }: { notice: SendNotice }) {
  const actions = useMailActions();
  const navigate = useNavigate();
  const folders = useAtomValue(foldersAtom);
  const composerOpen = useAtomValue(composerAtom) !== null;
  const [busy, setBusy] = useState(false);
  const { title, message, reply } = sendNoticeText(notice);
  const fail = (what: string) => (error: unknown) => actions.toast({ tone: 'error', title: what, message: TernError.from(error).message });
  const run = (work: () => Promise<unknown>, what: string) => {
    setBusy(true);
    void work()
      .catch(fail(what))
      .finally(() => setBusy(false));
  };
  const sent = folders[notice.accountId]?.find((folder) => folder.specialUse === 'sent');
  const checkSent = () =>
    void (sent
      ? navigate({ to: '/mail/$accountId/$folderId', params: { accountId: notice.accountId, folderId: sent.id }, search: {} })
      : navigate({ to: '/mail/unified/$role', params: { role: 'sent' }, search: {} }));
  const openDraft = () =>
    run(async () => {
      const draft = await actions.openDraft({ accountId: notice.accountId, draftId: notice.draftId });
      actions.openComposer(composerInitialOfDraft(draft));
      await actions.dismissSendNotice(notice);
    }, 'Could not open the draft');
  return (
    <div className={`toast ${notice.kind === 'notFiled' ? 'toast-info' : 'toast-error'} send-notice`} data-notice={notice.kind} style={LAYOUT.notice}>
      <Icon name={notice.kind === 'notFiled' ? 'check' : 'spam'} className="toast-icon" />
      <div className="toast-text" style={LAYOUT.text}>
        <strong className="toast-title">{title}</strong>
        <span>{message}</span>
        {reply && (
          <span className="send-notice-reply" style={LAYOUT.reply}>
            The mail server answered: “{reply}”
          </span>
        )}
      </div>
      <button
        type="button"
        className="icon-button toast-close"
        disabled={busy}
        aria-label={notice.kind === 'maybeSent' ? `Dismiss: ${title}; it was sent` : `Dismiss: ${title}`}
        title={notice.kind === 'maybeSent' ? 'It was sent: dismiss' : 'Dismiss'}
        onClick={() => run(() => actions.dismissSendNotice(notice), 'Could not dismiss')}
      >
        <Icon name="close" size={16} />
      </button>
      {notice.kind !== 'notFiled' && (
        <div className="send-notice-actions" style={LAYOUT.actions}>
          {notice.kind === 'maybeSent' && (
            <>
              <button type="button" className="toast-action" onClick={checkSent}>
                Check Sent
              </button>
              <button type="button" className="toast-action" disabled={busy} onClick={() => run(() => actions.sendAgain(notice, SEND_AGAIN_DELAY_MS), 'Could not send it again')}>
                Send again
              </button>
            </>
          )}
          {notice.kind === 'notSent' && (
            // Another message being written stays: the draft opens once that one is closed.
            <button type="button" className="toast-action" disabled={busy || composerOpen} title={composerOpen ? 'Close the message you are writing first' : undefined} onClick={openDraft}>
              Open draft
            </button>
          )}
        </div>
      )}
    </div>
  );
}

export function SendNotices() {
  const notices = useAtomValue(sendNoticesAtom);
  if (notices.length === 0) return null;
  return (
    <div role="status" className="toast-stack send-notices" aria-label="Messages that need your attention">
      {notices.map((notice) => (
        <NoticeView key={`${notice.accountId}:${notice.noticeId}`} notice={notice} />
      ))}
    </div>
  );
}
