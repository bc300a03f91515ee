/** The mail screens' frame: sidebar, top bar, the mailbox of the address, the shortcuts dialog. */
import { Outlet } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { ShortcutsDialog } from '../keyboard/ShortcutsDialog';
import { Sidebar } from '../sidebar/Sidebar';
import { viewModeAtom } from '../state/atoms';
import { TopBar } from '../toolbar/TopBar';
import { useActiveAccountId } from './current-mailbox';
import { ComposerHost } from './ComposerHost';
import { SyncBanner } from './SyncBanner';

export function MailLayout() {
  const viewMode = useAtomValue(viewModeAtom);
  const activeAccountId = useActiveAccountId();
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
