/**
 * "Why is this important?" (issue 17 point 4): the priority inbox's reasons for a row's
 * verdict, asked of the engine when the row's marker is pressed (click, or Enter on it).
 * A modal dialog: it closes with Escape or its button and gives the focus back to the marker.
 */
import { useEffect, useState } from 'react';
import type { PrioritySignal } from '../../shared/priority-score';
import type { PriorityExplanation } from '../../shared/worker-api';
import { ModalDialog } from '../kit/ModalDialog';
import { useT, type MessageId } from '../kit/i18n';
import { useMailActions } from '../state/actions-context';

const REASON_TEXT: Readonly<Record<PrioritySignal, MessageId>> = {
  repliesToSender: 'priority.reasonRepliesToSender',
  directlyToYou: 'priority.reasonDirectlyToYou',
  yourThread: 'priority.reasonYourThread',
  knownContact: 'priority.reasonKnownContact',
  notAPerson: 'priority.reasonNotAPerson',
  bulkMail: 'priority.reasonBulkMail',
};

export function WhyImportant({ accountId, threadId, onClose }: { accountId: string; threadId: string; onClose: () => void }) {
  const t = useT();
  const actions = useMailActions();
  const [answer, setAnswer] = useState<PriorityExplanation | 'failed' | null>(null);
  useEffect(() => {
    let live = true;
    actions.explainPriority({ accountId, threadId }).then(
      (explanation) => live && setAnswer(explanation),
      () => live && setAnswer('failed'),
    );
    return () => {
      live = false;
    };
  }, [actions, accountId, threadId]);
  return (
    <ModalDialog title={t('priority.whyTitle')} onClose={onClose} closeOnBackdrop className="why-important">
      <div className="why-important-body" aria-live="polite">
        {answer === null && <p>{t('priority.whyLoading')}</p>}
        {answer === 'failed' && <p role="alert">{t('priority.whyFailed')}</p>}
        {answer !== null && answer !== 'failed' && (
          <>
            {answer.reasons.length > 0 && (
              <ul className="why-important-reasons">
                {answer.reasons.map((reason) => (
                  <li key={reason}>{t(REASON_TEXT[reason])}</li>
                ))}
              </ul>
            )}
            {answer.marked && <p>{t('priority.whyMarked')}</p>}
            {answer.reasons.length === 0 && !answer.marked && <p>{t('priority.whyNone')}</p>}
          </>
        )}
      </div>
      <div className="modal-dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('priority.close')}
        </button>
      </div>
    </ModalDialog>
  );
}
