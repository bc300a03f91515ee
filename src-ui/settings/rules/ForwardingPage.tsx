/**
 * Forwarding: every arriving message to another address, with or without a copy kept here
 * (Sieve `redirect :copy` / `redirect`), and the deliverability warning (SPF/DMARC) said
 * before it is turned on. Forwarding in: how to send mail of another address here, and a
 * check that it arrives (ForwardingInCheck).
 */
import { useId, useState, type FormEvent } from 'react';
import { ruleAddressSchema, type Forwarding } from '../../../shared/mail-rules';
import { useT } from '../../kit/i18n';
import { ForwardingInCheck } from './ForwardingInCheck';
import { RulesScope, type RulesPageContext } from './RulesScope';
import { FieldError } from '../../kit/FieldError';

export default function ForwardingPage() {
  const t = useT();
  return <RulesScope intro={t('rules.forwardingIntro')}>{(context) => <ForwardingForm key={context.doc.revision} context={context} />}</RulesScope>;
}

function ForwardingForm({ context }: { context: RulesPageContext }) {
  const t = useT();
  const id = useId();
  const { doc, rules, account } = context;
  const [draft, setDraft] = useState<Forwarding>(doc.rules.forwarding);
  const [invalid, setInvalid] = useState(false);
  const set = (change: Partial<Forwarding>) => {
    rules.clearError();
    setInvalid(false);
    setDraft((current) => ({ ...current, ...change }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = draft.address.trim() ? ruleAddressSchema.safeParse(draft.address) : null;
    if ((draft.enabled && !address) || (address && !address.success)) return setInvalid(true);
    void rules.save({ ...doc.rules, forwarding: { ...draft, address: address?.success ? address.data : '' } });
  };
  return (
    <>
      <form className="settings-sections rules-form" onSubmit={submit} noValidate>
        <label className="settings-switch" htmlFor={`${id}-on`}>
          <input id={`${id}-on`} type="checkbox" role="switch" checked={draft.enabled} onChange={(event) => set({ enabled: event.target.checked })} />
          <span>{t('rules.forwardingOn')}</span>
        </label>
        <div>
          <label className="field-label" htmlFor={`${id}-to`}>
            {t('rules.forwardTo')}
          </label>
          <input id={`${id}-to`} className="input" type="email" autoComplete="email" aria-invalid={invalid} placeholder={t('rules.forwardPlaceholder')} value={draft.address} onChange={(event) => set({ address: event.target.value })} />
          <FieldError>{invalid && draft.address.trim() ? t('rules.invalidSender') : t('rules.forwardingNeedsAddress')}</FieldError>
        </div>
        <label className="settings-switch" htmlFor={`${id}-copy`}>
          <input id={`${id}-copy`} type="checkbox" checked={draft.keepCopy} onChange={(event) => set({ keepCopy: event.target.checked })} />
          <span>{t('rules.keepCopy')}</span>
        </label>
        <p className="settings-notice" role="note">
          {t('rules.forwardingWarning')}
        </p>
        <div>
          <button type="submit" className="button button-primary" disabled={rules.saving}>
            {rules.saving ? t('rules.saving') : t('rules.save')}
          </button>
        </div>
      </form>
      <ForwardingInCheck account={account} />
    </>
  );
}
