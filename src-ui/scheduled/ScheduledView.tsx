/**
 * The Scheduled list (issue 15 point 1), a view of its own beside the folders and kept apart
 * from Drafts: every account's messages the gateway will send at their time, soonest first,
 * live (another tab or device scheduling or cancelling shows at once). Edit and Cancel send
 * both take the message back to a draft; Edit then opens it in the composer.
 */
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { TernError } from '../../shared/errors';
import type { DraftEdit, PendingSendView } from '../../shared/worker-mail-api';
import { errorPhrase } from '../../shared/strings';
import { formatFullTime } from '../kit/date-format';
import { Icon } from '../kit/icons';
import { useLocale, useT } from '../kit/i18n';
import { useMailActions } from '../state/actions-context';
import { accountsAtom } from '../state/atoms';
import './scheduled.css';

export function ScheduledView(props: { onEdit: (draft: DraftEdit) => void }) {
  const t = useT();
  const locale = useLocale();
  const actions = useMailActions();
  const titleId = useId();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const accountIds = useMemo(() => accounts.map((account) => account.accountId), [accounts]);
  const [sends, setSends] = useState<readonly PendingSendView[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    const all = await actions.pendingSends(accountIds).catch(() => null);
    // Undo holds last seconds and belong to their composer's toast; this list is what waits for a time.
    if (all) setSends(all.filter((send) => send.scheduled));
  }, [actions, accountIds]);
  useEffect(() => {
    void load();
    return actions.watchPendingSends(() => void load());
  }, [actions, load]);

  const takeBack = async (send: PendingSendView, edit: boolean) => {
    setBusy(send.outboxId);
    try {
      const { draftId } = await actions.cancelScheduled(send);
      await load();
      if (edit && draftId) props.onEdit(await actions.openDraft({ accountId: send.accountId, draftId }));
      else actions.toast({ tone: 'info', message: t('scheduled.cancelled') });
    } catch (error) {
      actions.toast({ tone: 'error', title: t('scheduled.couldNotCancel'), message: errorPhrase(TernError.from(error)) });
      await load();
    } finally {
      setBusy(null);
    }
  };

  const many = accounts.length > 1;
  return (
    <section className="scheduled-view" aria-labelledby={titleId}>
      <header className="scheduled-header">
        <h1 id={titleId} className="scheduled-title">
          <Icon name="clock" size={20} /> {t('scheduled.viewTitle')}
        </h1>
        <p className="scheduled-intro">{t('scheduled.viewIntro')}</p>
      </header>
      {sends !== null && sends.length === 0 && <p className="scheduled-empty">{t('scheduled.empty')}</p>}
      {sends !== null && sends.length > 0 && (
        <ul className="scheduled-list">
          {sends.map((send) => {
            const subject = send.subject || t('scheduled.noSubject');
            const account = many ? accounts.find((known) => known.accountId === send.accountId)?.emailAddress : undefined;
            return (
              <li key={`${send.accountId}:${send.outboxId}`} className="scheduled-item" aria-busy={busy === send.outboxId || undefined}>
                <div className="scheduled-item-text">
                  <span className="scheduled-item-subject">{subject}</span>
                  <span className="scheduled-item-to">{t('scheduled.to', { names: send.to.join(', ') })}</span>
                  <span className="scheduled-item-when">
                    <Icon name="clock" size={14} /> {t('scheduled.sendsAt', { when: formatFullTime(send.sendAt, locale) })}
                    {account && <span className="scheduled-item-account"> · {account}</span>}
                  </span>
                  {send.state === 'failed' && <span className="scheduled-item-failed">{t('scheduled.failed')}</span>}
                </div>
                {send.state !== 'failed' && (
                <div className="scheduled-item-actions">
                  <button type="button" className="button button-secondary" disabled={busy !== null} aria-label={t('scheduled.editLabel', { subject })} onClick={() => void takeBack(send, true)}>
                    {t('scheduled.edit')}
                  </button>
                  <button type="button" className="button button-secondary" disabled={busy !== null} aria-label={t('scheduled.cancelSendLabel', { subject })} onClick={() => void takeBack(send, false)}>
                    {t('scheduled.cancelSend')}
                  </button>
                </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
