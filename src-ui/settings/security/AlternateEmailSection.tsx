/**
 * Settings → Security, the alternate email of one account: set it (a code is mailed there by
 * the gateway), confirm it with that code, or remove it. With two-step verification on, a
 * change also takes a fresh code from the app: a stolen session must not redirect the way back in.
 */
import { useId, useState, type FormEvent } from 'react';
import type { SecurityStatus } from '../../../shared/api/security';
import { useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { CodeField } from './TwoFactorSection';
import { useSecurityCall } from './use-security-call';
import { FieldError } from '../../kit/FieldError';

export function AlternateEmailSection({ accountId, status, refresh }: { accountId: string; status: SecurityStatus; refresh: () => void }) {
  const t = useT();
  const { security } = useMailActions();
  const { run, error, busy } = useSecurityCall();
  const [address, setAddress] = useState('');
  const [appCode, setAppCode] = useState('');
  const [mailedCode, setMailedCode] = useState('');
  const id = useId();
  const current = status.alternateEmail;
  const twoFactorOn = status.twoFactor.enabled;
  const appCodeParam = () => (twoFactorOn ? { twoFactorCode: appCode.replace(/\s+/g, '') } : {});

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if ((await run(() => security.alternateEmail({ accountId, email: address, ...appCodeParam() }).then(() => true))) === true) {
      setAddress('');
      setAppCode('');
      refresh();
    }
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if ((await run(() => security.confirmAlternateEmail({ accountId, code: mailedCode.replace(/\s+/g, '') }).then(() => true))) === true) {
      setMailedCode('');
      refresh();
    }
  };
  const remove = async () => {
    if ((await run(() => security.removeAlternateEmail({ accountId, ...appCodeParam() }).then(() => true))) === true) {
      setAppCode('');
      refresh();
    }
  };

  return (
    <section className="settings-group security-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="rules-subtitle">
        {t('security.alternateTitle')}
      </h3>
      <p className="settings-intro">{t('security.alternateIntro')}</p>
      <p className="security-state" data-verified={current?.verified ? 'true' : undefined}>
        {current ? t(current.verified ? 'security.alternateVerified' : 'security.alternatePending', { email: current.email }) : t('security.alternateNone')}
      </p>
      {!status.systemMail ? (
        <p className="settings-notice">{t('security.noSystemMail')}</p>
      ) : (
        <>
          {current && !current.verified && (
            <form className="security-form" onSubmit={confirm} noValidate>
              <CodeField label={t('security.alternateCode')} error={error} value={mailedCode} onChange={setMailedCode} />
              <button type="submit" className="button button-primary" disabled={busy || mailedCode.trim() === ''}>
                {t('security.alternateConfirm')}
              </button>
            </form>
          )}
          <form className="security-form" onSubmit={save} noValidate>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-address`}>
                {t('security.alternateAddress')}
              </label>
              <input id={`${id}-address`} className="input" type="email" autoComplete="email" inputMode="email" value={address} onChange={(event) => setAddress(event.target.value)} />
            </div>
            {twoFactorOn && <CodeField label={t('security.freshCode')} hint={t('security.alternateNeedsCode')} error={null} value={appCode} onChange={setAppCode} />}
            <FieldError>{(!current || current.verified) && error && error}</FieldError>
            <div className="settings-inline security-actions">
              <button type="submit" className="button button-primary" disabled={busy || address.trim() === ''}>
                {t('security.alternateSave')}
              </button>
              {current && (
                <button type="button" className="button button-secondary" disabled={busy} onClick={() => void remove()}>
                  {t('security.alternateRemove')}
                </button>
              )}
            </div>
          </form>
        </>
      )}
    </section>
  );
}
