/** The mail screens' frame: sidebar, top bar, the mailbox of the address, the shortcuts dialog. */
import { Outlet } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { brand } from '../brand';
import { ShortcutsDialog } from '../keyboard/ShortcutsDialog';
import { Sidebar } from '../sidebar/Sidebar';
import { inboxUnreadAtom, viewModeAtom } from '../state/atoms';
import { TopBar } from './TopBar';
import { useActiveAccountId } from '../state/current-mailbox';
import { ComposerHost } from './ComposerHost';
import { SyncBanner } from './SyncBanner';

export function MailLayout() {
  const viewMode = useAtomValue(viewModeAtom);
  const activeAccountId = useActiveAccountId();
  const unread = Object.values(useAtomValue(inboxUnreadAtom)).reduce((sum, count) => sum + count, 0);
  // The tab says how much is unread, like every webmail's.
  useEffect(() => {
    document.title = unread > 0 ? `(${unread.toLocaleString()}) ${brand.name}` : brand.name;
    return () => {
      document.title = brand.name;
    };
  }, [unread]);
  return (
    <div className="app-frame" data-view={viewMode}>
      <a className="skip-link" href="#thread-list">
        Skip to conversations
      </a>
      <Sidebar />
      <main className="app-main" aria-label="Mail">
        <TopBar />
        <SyncBanner />
        <Outlet />
      </main>
      <ShortcutsDialog />
      <ComposerHost defaultAccountId={activeAccountId} />
    </div>
  );
}
