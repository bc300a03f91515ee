/** What a Settings page says under one account's preferences: changes not on the gateway yet, and the last change's error. */
import type { AccountSettings } from '../../shared/worker-api';
import { useT } from '../kit/i18n';
import { FieldError } from '../kit/FieldError';

export function AccountNotices({ settings, error }: { settings: AccountSettings | undefined; error: string | null }) {
  const t = useT();
  return (
    <>
      {settings?.unsynced && <p className="settings-notice">{t('settings.notSynced')}</p>}
      <FieldError>{error}</FieldError>
    </>
  );
}
