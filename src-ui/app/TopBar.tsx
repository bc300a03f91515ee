/** The bar above the mailbox: search, shortcuts help, settings, account. */
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
  return (
    <header className="topbar">
      <SearchBox />
      <div className="topbar-actions">
        <button type="button" className="icon-button" aria-label={t('toolbar.keyboardShortcuts')} title={t('toolbar.keyboardShortcuts2')} aria-keyshortcuts="?" onClick={() => openShortcuts(true)}>
          <Icon name="keyboard" size={20} />
        </button>
        <SettingsMenu />
        <AccountMenu />
      </div>
    </header>
  );
}
