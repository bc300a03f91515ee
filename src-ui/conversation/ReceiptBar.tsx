/**
 * "Sender asked for a read receipt — Send / Ignore" (issue 14 point 4; RFC 8098) above a
 * message that asks for one and may still be answered (BodyView.receipt: none refused; the
 * account's preference is "ask"). Either answer goes to the gateway, which sets $MDNSent so no
 * other device asks again; a receipt that would go elsewhere than to the sender says so first.
 */
import { useState } from 'react';
import { TernError } from '../../shared/errors';
import type { ReceiptAsk } from '../../shared/worker-mail-views';
import { Icon } from '../kit/icons';
import { errorText, useT } from '../kit/i18n';

export function ReceiptBar(props: { receipt: ReceiptAsk; senderEmail: string | undefined; onAnswer: (send: boolean) => Promise<void> }) {
  const t = useT();
  const [state, setState] = useState<{ kind: 'asking' | 'busy' | 'done' } | { kind: 'failed'; reason: string }>({ kind: 'asking' });
  if (state.kind === 'done') return null;
  const answer = async (send: boolean) => {
    setState({ kind: 'busy' });
    try {
      await props.onAnswer(send);
      setState({ kind: 'done' });
    } catch (error) {
      setState({ kind: 'failed', reason: errorText(t, TernError.from(error)) });
    }
  };
  const { address } = props.receipt;
  return (
    <div className="tern-remote-bar tern-receipt-bar" role="region" aria-label={t('writing.receiptAsked')}>
      <Icon name="doubleCheck" />
      <span className="tern-remote-text">
        {t('writing.receiptAsked')}
        {props.receipt.elsewhere && address && (
          <>
            <br />
            <strong>{t('writing.receiptOtherAddress', { address, sender: props.senderEmail ?? '' })}</strong>
          </>
        )}
        {state.kind === 'failed' && (
          <>
            <br />
            <span role="alert">{t('writing.receiptNotSent', { reason: state.reason })}</span>
          </>
        )}
      </span>
      <span className="tern-remote-actions">
        <button type="button" className="tern-link-button" disabled={state.kind === 'busy' || address === null} onClick={() => void answer(true)}>
          {t('writing.receiptSend')}
        </button>
        <button type="button" className="tern-link-button" disabled={state.kind === 'busy'} onClick={() => void answer(false)}>
          {t('writing.receiptIgnore')}
        </button>
      </span>
    </div>
  );
}
