/**
 * Apps (spec §2 "app download page"; issue 20 point 5), reached from the account menu:
 * installing Tern on a computer or a phone — the browser's own install prompt where it
 * offers one (Chromium's `beforeinstallprompt`, held by offline/sw-registration.ts), the
 * steps for the others — and Tern as the default mail app (the set-default-mail modal).
 */
import { useAtomValue } from 'jotai';
import { useId, useState, useSyncExternalStore } from 'react';
import type { BodyProgress } from '../../../shared/worker-mail-api';
import { brand } from '../../brand';
import { useT, type MessageId } from '../../kit/i18n';
import {
  chooseKeepOffline,
  installOffered,
  keepOfflineDays,
  OFFLINE_DAY_CHOICES,
  offlineProgress,
  promptInstall,
  requestPersistentStorage,
  runKeepOffline,
  runsInstalled,
  subscribeToOffline,
  subscribeToUpdate,
} from '../../offline';
import { useMailActions } from '../../state/actions-context';
import { accountsAtom } from '../../state/atoms';
import { DefaultMailDialog } from './DefaultMailDialog';

const CSS = `
.apps-steps { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 260px), 1fr)); gap: 12px; margin: 0; padding: 0; list-style: none; }
.apps-step { padding: 12px 14px; border: 1px solid var(--line); border-radius: 12px; font-size: 14px; line-height: 1.5; overflow-wrap: anywhere; }
.apps-step h4 { margin: 0 0 4px; font-size: 14px; font-weight: 650; }
.apps-step p { margin: 0; color: var(--muted); }
.apps-actions { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.apps-actions .button { min-height: 44px; }
dialog.modal-dialog.default-mail-dialog { width: min(500px, calc(100vw - 32px)); }
.default-mail-body { display: flex; flex-direction: column; gap: 12px; font-size: 14.5px; line-height: 1.5; }
.default-mail-body p { margin: 0; }
.default-mail-actions { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 10px; margin-top: 4px; }
.default-mail-actions .button { min-height: 44px; }
.settings-notice-error { background: var(--danger-soft); }
.apps-offline-status { margin-top: 10px; }
.apps-offline-days { display: flex; flex-direction: column; gap: 6px; margin-top: 12px; max-width: 320px; }
`;

/** Where to find "Install" in each browser, for those with no prompt to offer. */
const STEPS: readonly { readonly where: MessageId; readonly how: MessageId }[] = [
  { where: 'device.stepsDesktopChromium', how: 'device.stepsDesktopChromiumHow' },
  { where: 'device.stepsDesktopSafari', how: 'device.stepsDesktopSafariHow' },
  { where: 'device.stepsAndroid', how: 'device.stepsAndroidHow' },
  { where: 'device.stepsIos', how: 'device.stepsIosHow' },
  { where: 'device.stepsFirefox', how: 'device.stepsFirefoxHow' },
];

/** What the engine's progress means to a person. */
function progressText(t: ReturnType<typeof useT>, progress: BodyProgress | null, days: number): string | null {
  if (!progress || progress.state === 'idle') return null;
  if (progress.state === 'running') return t('device.offlineRunning', { done: progress.done, total: progress.total });
  if (progress.state === 'offline') return t('device.offlineStoppedOffline', { done: progress.done, total: progress.total });
  if (progress.state === 'paused') return t('device.offlinePausedSaveData');
  return t('device.offlineDone', { days });
}

/** "Keep recent mail offline": the choice and how far the engine has come. */
function OfflineReading() {
  const t = useT();
  const actions = useMailActions();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const days = useSyncExternalStore(subscribeToOffline, keepOfflineDays, () => null);
  const progress = useSyncExternalStore(subscribeToOffline, offlineProgress, () => null);
  const id = useId();
  const keep = (next: number | null) => {
    chooseKeepOffline(next);
    if (next === null) return;
    // Kept mail is worth keeping: ask the browser not to evict it.
    void requestPersistentStorage();
    void runKeepOffline(actions.keepOffline, accounts.map((account) => account.accountId));
  };
  const status = days === null ? null : progressText(t, progress, days);
  // A stored choice the list does not offer (set elsewhere) stays shown as it is.
  const choices: readonly number[] = days === null || (OFFLINE_DAY_CHOICES as readonly number[]).includes(days) ? OFFLINE_DAY_CHOICES : [...OFFLINE_DAY_CHOICES, days];
  return (
    <section className="settings-group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="field-label">
        {t('device.offlineTitle')}
      </h3>
      <label className="settings-switch">
        <input type="checkbox" checked={days !== null} onChange={(event) => keep(event.target.checked ? OFFLINE_DAY_CHOICES[0] : null)} aria-describedby={`${id}-hint`} />
        <span className="settings-switch-text">
          <span>{t('device.offlineKeep')}</span>
          <span id={`${id}-hint`} className="settings-choice-hint">
            {t('device.offlineHint')}
          </span>
        </span>
      </label>
      {days !== null && (
        <div className="apps-offline-days">
          <label htmlFor={`${id}-days`} className="field-label">
            {t('device.offlineHowFar')}
          </label>
          <select id={`${id}-days`} className="input settings-select" value={days} onChange={(event) => keep(Number(event.target.value))}>
            {choices.map((choice) => (
              <option key={choice} value={choice}>
                {t('device.offlineDays', { days: choice })}
              </option>
            ))}
          </select>
        </div>
      )}
      {status && (
        <p className="settings-notice apps-offline-status" role="status">
          {status}
        </p>
      )}
    </section>
  );
}

export default function AppsPage() {
  const t = useT();
  const offered = useSyncExternalStore(subscribeToUpdate, installOffered, () => false);
  const [installed, setInstalled] = useState(runsInstalled);
  const [defaultOpen, setDefaultOpen] = useState(false);
  return (
    <div className="settings-sections">
      <style href="tern-apps" precedence="tern">
        {CSS}
      </style>
      <section className="settings-group" aria-labelledby="apps-install">
        <h3 id="apps-install" className="field-label">
          {t('device.installTitle', { app: brand.name })}
        </h3>
        <p className="settings-intro">{t('device.installWhy', { app: brand.name })}</p>
        {installed ? (
          <p className="settings-notice" role="status">
            {t('device.installedAlready', { app: brand.name })}
          </p>
        ) : offered ? (
          <div className="apps-actions">
            <button type="button" className="button button-primary" onClick={() => void promptInstall().then((done) => done && setInstalled(true))}>
              {t('device.installNow', { app: brand.name })}
            </button>
          </div>
        ) : (
          <ul className="apps-steps">
            {STEPS.map((step) => (
              <li key={step.where} className="apps-step">
                <h4>{t(step.where)}</h4>
                <p>{t(step.how, { app: brand.name })}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="settings-group" aria-labelledby="apps-default">
        <h3 id="apps-default" className="field-label">
          {t('device.defaultMailSection')}
        </h3>
        <p className="settings-intro">{t('device.defaultMailWhat', { app: brand.name })}</p>
        <div className="apps-actions">
          <button type="button" className="button button-secondary" onClick={() => setDefaultOpen(true)}>
            {t('device.defaultMailOpen', { app: brand.name })}
          </button>
        </div>
      </section>
      <OfflineReading />
      {defaultOpen && <DefaultMailDialog onClose={() => setDefaultOpen(false)} />}
    </div>
  );
}
