/**
 * Settings → Contacts: where the address book is, what it holds (the catalogue's limits), and
 * how the composer's suggestions are ranked and removed. The book itself is its own screen
 * (/contacts); this page reads nothing from the engine.
 */
import { Link } from '@tanstack/react-router';
import { CONTACT_LIMITS } from '../../../shared/contacts';
import { formatFileSize } from '../../../shared/file-size';
import { useLocale, useT } from '../../kit/i18n';

export default function ContactsPage() {
  const t = useT();
  const locale = useLocale();
  const number = (value: number) => value.toLocaleString(locale);
  return (
    <div className="settings-sections">
      <p className="settings-intro">{t('contacts.settingsIntro')}</p>
      <p>
        <Link to="/contacts" className="button button-primary">
          {t('contacts.openBook')}
        </Link>
      </p>
      <p className="settings-intro">{t('contacts.settingsLimits', { contacts: number(CONTACT_LIMITS.contacts), emails: CONTACT_LIMITS.emails, phones: CONTACT_LIMITS.phones })}</p>
      <p className="settings-intro">{t('contacts.settingsImport', { count: number(CONTACT_LIMITS.importContacts), size: formatFileSize(CONTACT_LIMITS.importBytes, locale) })}</p>
      <p className="settings-intro">{t('contacts.settingsSuggestions')}</p>
    </div>
  );
}
