import { Link } from '@tanstack/react-router';
import { useT } from '../kit/i18n';

/** An address the app has no screen for. */
export function NotFound() {
  const t = useT();
  return (
    <main className="empty-page" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t('app.nothingHere')}</h1>
      <p>{t('app.thisAddressDoesNot')}</p>
      <Link to="/mail/unified/$role" params={{ role: 'inbox' }} className="button button-primary">
        {t('app.goToYourInbox')}
      </Link>
    </main>
  );
}
