/**
 * Settings → Security (issue 19): for the chosen account, two-step verification (with its
 * recovery codes) and the alternate email; above them, plainly, that the mailbox password
 * itself belongs to the provider and can only be changed there.
 */
import { useCallback, useEffect, useState } from 'react';
import type { SecurityStatus } from '../../../shared/api/security';
import { TernError } from '../../../shared/errors';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { AccountPicker, useChosenAccount } from './AccountPicker';
import { AlternateEmailSection } from './AlternateEmailSection';
import { TwoFactorSection } from './TwoFactorSection';
import { FieldError } from '../../kit/FieldError';
import './security.css';

function AccountSecurity({ accountId, email }: { accountId: string; email: string }) {
  const t = useT();
  const { security } = useMailActions();
  const [status, setStatus] = useState<SecurityStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    security.status({ accountId }).then(setStatus, (cause: unknown) => setError(errorText(t, TernError.from(cause))));
  }, [accountId, security, t]);
  useEffect(refresh, [refresh]);
  if (!status)
    return error ? (
      <FieldError>{error}</FieldError>
    ) : (
      <p className="field-hint">{t('security.loading')}</p>
    );
  return (
    <>
      <TwoFactorSection accountId={accountId} email={email} status={status} refresh={refresh} />
      <AlternateEmailSection accountId={accountId} status={status} refresh={refresh} />
    </>
  );
}

export default function SecurityPage() {
  const t = useT();
  const { accounts, shown, choose } = useChosenAccount();
  return (
    <div className="settings-sections">
      <p className="settings-notice security-provider-note">{t('security.providerPassword')}</p>
      <AccountPicker accounts={accounts} shown={shown} choose={choose} />
      {shown && <AccountSecurity key={shown.accountId} accountId={shown.accountId} email={shown.emailAddress} />}
    </div>
  );
}
