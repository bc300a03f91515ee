/** The bar above the mailbox: (on a phone) the folders, search, shortcuts help, contacts, settings, account. */
import { useNavigate } from '@tanstack/react-router';
import { useSetAtom } from 'jotai';
import { Icon } from '../kit/icons';
import { SettingsMenu } from '../settings/SettingsMenu';
import { shortcutsOpenAtom } from '../state/atoms';
import { AccountMenu } from '../toolbar/AccountMenu';
import { SearchBox } from '../toolbar/SearchBox';
import { useT } from '../kit/i18n';

export function TopBar() {
  const t = useT();
  const openShortcuts = useSetAtom(shortcutsOpenAtom);
  const navigate = useNavigate();
  return (
    <header className="topbar">
      {/* Phone only (layout.css): the folder list in place of the mailbox, a page of its own for Back. */}
      <button
        type="button"
        className="icon-button topbar-folders"
        aria-label={t('device.folders')}
        title={t('device.folders')}
        onClick={() => void navigate({ to: '.', search: (previous: Record<string, unknown>) => ({ ...previous, thread: undefined, folders: '1' as const }) })}
      >
        <Icon name="menu" size={22} />
      </button>
      <SearchBox />
      <div className="topbar-actions">
        <button type="button" className="icon-button topbar-shortcuts" aria-label={t('toolbar.keyboardShortcuts')} title={t('toolbar.keyboardShortcuts2')} aria-keyshortcuts="?" onClick={() => openShortcuts(true)}>
          <Icon name="keyboard" size={20} />
        </button>
        <button type="button" className="icon-button topbar-contacts" aria-label={t('contacts.openContacts')} title={t('contacts.openContacts')} onClick={() => void navigate({ to: '/contacts' })}>
          <Icon name="contacts" size={20} />
        </button>
        <SettingsMenu />
        <AccountMenu />
      </div>
    </header>
  );
}
