/**
 * Forwarding in (Settings → Forwarding): how to have another address forward its mail here, and
 * a check that it does: the gateway sends a test message to that address and waits for it in
 * this Inbox (src-server/sieve/forwarding-check.ts). The result says plainly whether it came,
 * and what to look at when it did not.
 */
import { useId, useState, type FormEvent } from 'react';
import { TernError } from '../../../shared/errors';
import { ruleAddressSchema, type ForwardingCheckResult } from '../../../shared/mail-rules';
import type { PublicAccount } from '../../../shared/account';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { FieldError } from '../../kit/FieldError';

type CheckState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'checking'; readonly address: string }
  | { readonly kind: 'done'; readonly address: string; readonly result: ForwardingCheckResult }
  | { readonly kind: 'failed'; readonly reason: string };

export function ForwardingInCheck({ account }: { account: PublicAccount }) {
  const t = useT();
  const id = useId();
  const actions = useMailActions();
  const [address, setAddress] = useState('');
  const [invalid, setInvalid] = useState<'address' | 'own' | null>(null);
  const [state, setState] = useState<CheckState>({ kind: 'idle' });
  const email = account.emailAddress;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ruleAddressSchema.safeParse(address);
    if (!parsed.success) return setInvalid('address');
    if (parsed.data === email.toLowerCase()) return setInvalid('own');
    const other = parsed.data;
    setState({ kind: 'checking', address: other });
    actions.checkForwarding({ accountId: account.accountId, address: other }).then(
      (result) => setState({ kind: 'done', address: other, result }),
      (error: unknown) => setState({ kind: 'failed', reason: errorText(t, TernError.from(error)) }),
    );
  };

  return (
    <section className="settings-group rules-forward-in" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="rules-subtitle">
        {t('rules.forwardingInTitle')}
      </h3>
      <p className="rules-steps-intro">{t('rules.forwardingIn', { email })}</p>
      <ol className="rules-steps">
        <li>{t('rules.forwardingInStep1')}</li>
        <li>{t('rules.forwardingInStep2', { email })}</li>
        <li>{t('rules.forwardingInStep3')}</li>
      </ol>
      <form className="rules-check" onSubmit={submit} noValidate>
        <div className="rules-check-field">
          <label className="field-label" htmlFor={`${id}-other`}>
            {t('rules.forwardingCheckAddress')}
          </label>
          <input
            id={`${id}-other`}
            className="input"
            type="email"
            autoComplete="off"
            placeholder={t('rules.forwardPlaceholder')}
            aria-invalid={invalid !== null}
            aria-describedby={invalid ? `${id}-invalid` : undefined}
            value={address}
            onChange={(event) => {
              setInvalid(null);
              setAddress(event.target.value);
            }}
          />
        </div>
        <button type="submit" className="button button-secondary" disabled={state.kind === 'checking'}>
          {t('rules.forwardingCheck')}
        </button>
      </form>
      <FieldError id={`${id}-invalid`}>{invalid && invalid === 'own' ? t('rules.forwardingCheckOwn', { email }) : t('rules.invalidSender')}</FieldError>
      <CheckOutcome state={state} email={email} />
    </section>
  );
}

function CheckOutcome({ state, email }: { state: CheckState; email: string }) {
  const t = useT();
  if (state.kind === 'checking') {
    return (
      <p className="settings-notice" role="status">
        {t('rules.forwardingChecking', { address: state.address })}
      </p>
    );
  }
  if (state.kind === 'failed') {
    return <FieldError>{t('rules.forwardingCheckFailed', { reason: state.reason })}</FieldError>;
  }
  if (state.kind === 'done') {
    return state.result.arrived ? (
      <p className="settings-notice rules-check-ok" role="status">
        {t('rules.forwardingCheckArrived', { address: state.address, seconds: state.result.seconds })}
      </p>
    ) : (
      <FieldError>{t('rules.forwardingCheckMissing', { address: state.address, seconds: state.result.seconds, email })}</FieldError>
    );
  }
  return null;
}
