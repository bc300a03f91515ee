/** Plan: each account's plan and which of the gated features it includes (upgrade screens come later). */
import { FEATURES } from '../../../shared/plans';
import { Icon } from '../../kit/icons';
import { useT } from '../../kit/i18n';
import { featureAllowed } from '../../state/use-feature';
import { FEATURE_NAMES } from '../pages';
import { useAccountsWithSettings } from '../settings-hooks';

export default function PlanPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      <p className="settings-intro">{t('settings.planIntro')}</p>
      {accounts.map(({ account, settings }) => (
        <section key={account.accountId} className="settings-group settings-plan" aria-label={account.emailAddress}>
          <h3 className="settings-plan-account">{account.emailAddress}</h3>
          <p className="settings-plan-name">{t('settings.planOf', { plan: t(settings?.plan === 'free' ? 'settings.planFree' : 'settings.planPaid') })}</p>
          <ul className="settings-features">
            {FEATURES.map((feature) => {
              const included = featureAllowed(settings, feature);
              return (
                <li key={feature} className={included ? 'settings-feature' : 'settings-feature settings-feature-missing'}>
                  <Icon name={included ? 'check' : 'close'} size={16} />
                  <span className="settings-feature-name">{t(FEATURE_NAMES[feature])}</span>
                  <span className="settings-feature-state">{included ? t('settings.included') : t('settings.notIncluded')}</span>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
