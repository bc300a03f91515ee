/**
 * The paywall of a gated feature (spec §6), minimal for now: the feature's name, that the
 * plan does not include it, and the way to the Plan page. Shown by `requestPaywall` of
 * useFeature (state/use-feature.ts) from anywhere; the upgrade screens come later.
 */
import { Link } from '@tanstack/react-router';
import { useAtom } from 'jotai';
import { ModalDialog } from '../kit/ModalDialog';
import { useT } from '../kit/i18n';
import { paywallAtom } from '../state/settings-atoms';
import { FEATURE_NAMES } from './pages';

export function PaywallDialog() {
  const t = useT();
  const [paywall, setPaywall] = useAtom(paywallAtom);
  if (!paywall) return null;
  const name = t(FEATURE_NAMES[paywall.feature]);
  const close = () => setPaywall(null);
  return (
    <ModalDialog title={name} onClose={close} className="paywall-dialog">
      <div className="modal-dialog-body">
        <p className="modal-dialog-text">{t('settings.paywallNotIncluded', { feature: name })}</p>
        <div className="modal-dialog-actions">
          <button type="button" className="button button-secondary" onClick={close}>
            {t('settings.paywallClose')}
          </button>
          <Link to="/settings/$page" params={{ page: 'plan' }} className="button button-primary" onClick={close} data-autofocus>
            {t('settings.paywallSeePlan')}
          </Link>
        </div>
      </div>
    </ModalDialog>
  );
}

export default PaywallDialog;
