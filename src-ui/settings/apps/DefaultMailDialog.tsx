/**
 * The set-default-mail modal (spec §2; issue 20 point 4): asks the browser to open
 * `mailto:` links in Tern (`registerProtocolHandler`, to /compose). Opened from Settings →
 * Apps, never on its own (nextcloud/mail #2535). What it says is what the page can know:
 * the browser confirms in its own prompt and never tells the page the answer, so the
 * dialog says it asked, not that Tern is the default; where the browser cannot (Safari,
 * a page not on HTTPS) it says so instead of a button that does nothing.
 */
import { useState } from 'react';
import { brand } from '../../brand';
import { useT } from '../../kit/i18n';
import { ModalDialog } from '../../kit/ModalDialog';

/** The handler's address: the browser puts the whole mailto: URI, escaped, in place of %s. */
export const MAILTO_HANDLER_PATH = '/compose?uri=%s';

export const canRegisterMailto = (): boolean => typeof navigator !== 'undefined' && typeof navigator.registerProtocolHandler === 'function' && window.isSecureContext;

type Outcome = { readonly kind: 'asked' } | { readonly kind: 'refused'; readonly reason: string } | null;

export function DefaultMailDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const possible = canRegisterMailto();
  const register = () => {
    try {
      navigator.registerProtocolHandler('mailto', `${location.origin}${MAILTO_HANDLER_PATH}`);
      setOutcome({ kind: 'asked' });
    } catch (error) {
      setOutcome({ kind: 'refused', reason: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <ModalDialog title={t('device.defaultMailTitle', { app: brand.name })} className="default-mail-dialog" closeOnBackdrop onClose={onClose}>
      <div className="default-mail-body">
        <p>{t('device.defaultMailWhat', { app: brand.name })}</p>
        {possible ? (
          <>
            <p className="field-hint">{t('device.defaultMailBrowserAsks')}</p>
            {outcome?.kind === 'asked' && (
              <p className="settings-notice" role="status">
                {t('device.defaultMailAsked', { app: brand.name })}
              </p>
            )}
            {outcome?.kind === 'refused' && (
              <p className="settings-notice settings-notice-error" role="alert">
                {t('device.defaultMailRefused', { reason: outcome.reason })}
              </p>
            )}
          </>
        ) : (
          <p className="settings-notice" role="status">
            {t('device.defaultMailImpossible', { app: brand.name })}
          </p>
        )}
        <div className="default-mail-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('device.close')}
          </button>
          {possible && (
            <button type="button" className="button button-primary" onClick={register} data-autofocus>
              {outcome?.kind === 'asked' ? t('device.defaultMailAskAgain') : t('device.defaultMailUse', { app: brand.name })}
            </button>
          )}
        </div>
      </div>
    </ModalDialog>
  );
}
