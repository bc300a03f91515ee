/** "A new version is ready — Reload": shown once a new build's service worker waits (sw-registration.ts). */
import { useSyncExternalStore } from 'react';
import { useT } from '../kit/i18n';
import { applyUpdate, subscribeToUpdate, updateWaiting } from './sw-registration';

export function UpdateBanner() {
  const t = useT();
  const ready = useSyncExternalStore(subscribeToUpdate, updateWaiting, () => false);
  if (!ready) return null;
  return (
    <div className="update-banner" role="status">
      <span>{t('device.updateReady')}</span>
      <button type="button" className="button button-primary" onClick={applyUpdate}>
        {t('device.reload')}
      </button>
    </div>
  );
}
