/**
 * Settings → Security, two-step verification of one account: set up (QR code and key, then the
 * first code turns it on), the recovery codes shown once (download, print), and — once on —
 * turning it off or new recovery codes, each with a fresh code from the app.
 */
import { useId, useState, type FormEvent } from 'react';
import type { Enrolment, SecurityStatus } from '../../../shared/api/security';
import { formatFullDate } from '../../kit/date-format';
import { useLocale, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { downloadText, recoveryCodesText } from './recovery-codes-file';
import { useSecurityCall } from './use-security-call';
import { FieldError } from '../../kit/FieldError';

type Mode = { readonly kind: 'idle' } | { readonly kind: 'enrolling'; readonly enrolment: Enrolment } | { readonly kind: 'codes'; readonly codes: readonly string[] };

/** A code field of six digits, its error beside it. */
export function CodeField(props: { label: string; hint?: string; error: string | null; value: string; onChange: (value: string) => void; autoFocus?: boolean }) {
  const id = useId();
  const described = [props.hint ? `${id}-hint` : null, props.error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="input security-code-input"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
        maxLength={12}
        value={props.value}
        autoFocus={props.autoFocus}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint && (
        <p id={`${id}-hint`} className="field-hint">
          {props.hint}
        </p>
      )}
      <FieldError id={`${id}-error`}>{props.error}</FieldError>
    </div>
  );
}

/** The ten codes, shown once, with ways to keep them. */
function RecoveryCodesView({ email, codes, onDone }: { email: string; codes: readonly string[]; onDone: () => void }) {
  const t = useT();
  const locale = useLocale();
  const download = () =>
    downloadText(
      'tern-mail-recovery-codes.txt',
      recoveryCodesText({ title: t('security.codesFileTitle', { email }), note: t('security.codesFileNote', { date: formatFullDate(Date.now(), locale) }), codes }),
    );
  return (
    <div className="security-codes" role="group" aria-labelledby="security-codes-title">
      <h3 id="security-codes-title" className="rules-subtitle">
        {t('security.codesTitle')}
      </h3>
      <p className="settings-intro">{t('security.codesIntro')}</p>
      <ol className="security-code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="settings-inline security-actions">
        <button type="button" className="button button-secondary" onClick={download}>
          {t('security.download')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => window.print()}>
          {t('security.print')}
        </button>
        <button type="button" className="button button-primary" onClick={onDone}>
          {t('security.saved')}
        </button>
      </div>
    </div>
  );
}

export function TwoFactorSection({ accountId, email, status, refresh }: { accountId: string; email: string; status: SecurityStatus; refresh: () => void }) {
  const t = useT();
  const { security } = useMailActions();
  const { run, error, busy, clearError } = useSecurityCall();
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const { enabled, recoveryCodesLeft } = status.twoFactor;

  const withCode = (work: (code: string) => Promise<void>) => async (event?: FormEvent) => {
    event?.preventDefault();
    await work(code.replace(/\s+/g, ''));
  };
  const start = async () => {
    const enrolment = await run(() => security.enrolTwoFactor({ accountId }));
    if (enrolment) setMode({ kind: 'enrolling', enrolment });
  };
  const confirm = withCode(async (typed) => {
    const result = await run(() => security.confirmTwoFactor({ accountId, code: typed }));
    if (result) {
      setCode('');
      setMode({ kind: 'codes', codes: result.recoveryCodes });
    }
  });
  const regenerate = withCode(async (typed) => {
    const result = await run(() => security.regenerateRecoveryCodes({ accountId, code: typed }));
    if (result) {
      setCode('');
      setMode({ kind: 'codes', codes: result.recoveryCodes });
    }
  });
  const disable = withCode(async (typed) => {
    if ((await run(() => security.disableTwoFactor({ accountId, code: typed }).then(() => true))) === true) {
      setCode('');
      refresh();
    }
  });
  const done = () => {
    setMode({ kind: 'idle' });
    refresh();
  };

  return (
    <section className="settings-group security-section" aria-labelledby={`security-2fa-${accountId}`}>
      <h3 id={`security-2fa-${accountId}`} className="rules-subtitle">
        {t('security.twoFactorTitle')}
      </h3>
      {mode.kind === 'codes' ? (
        <RecoveryCodesView email={email} codes={mode.codes} onDone={done} />
      ) : mode.kind === 'enrolling' ? (
        <form className="security-enrol" onSubmit={confirm} noValidate>
          <p className="settings-intro">{t('security.scanQr')}</p>
          <img className="security-qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(mode.enrolment.qrSvg)}`} alt={t('security.qrAlt')} width={184} height={184} />
          <p className="security-secret">
            <span className="field-label">{t('security.secretKey')}</span> <code>{mode.enrolment.secret.match(/.{1,4}/g)?.join(' ')}</code>
          </p>
          <CodeField label={t('security.firstCode')} hint={t('security.firstCodeHint')} error={error} value={code} onChange={setCode} autoFocus />
          <div className="settings-inline security-actions">
            <button type="submit" className="button button-primary" disabled={busy || code.trim() === ''}>
              {t('security.turnOn')}
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                clearError();
                setCode('');
                setMode({ kind: 'idle' });
              }}
            >
              {t('security.cancel')}
            </button>
          </div>
        </form>
      ) : enabled ? (
        <form className="security-enabled" onSubmit={disable} noValidate>
          <p className="security-state security-state-on">{t('security.twoFactorOn')}</p>
          <p className="field-hint">{t('security.recoveryLeft', { count: recoveryCodesLeft })}</p>
          <CodeField label={t('security.freshCode')} hint={t('security.freshCodeHint')} error={error} value={code} onChange={setCode} />
          <div className="settings-inline security-actions">
            <button type="button" className="button button-secondary" disabled={busy || code.trim() === ''} onClick={() => void regenerate()}>
              {t('security.newCodes')}
            </button>
            <button type="submit" className="button button-danger" disabled={busy || code.trim() === ''}>
              {t('security.turnOff')}
            </button>
          </div>
        </form>
      ) : (
        <div>
          <p className="security-state">{t('security.twoFactorOff')}</p>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void start()}>
            {t('security.setUp')}
          </button>
          <FieldError>{error}</FieldError>
        </div>
      )}
    </section>
  );
}
