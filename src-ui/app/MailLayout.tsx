/**
 * The mail screens' frame: sidebar, top bar, the mailbox of the address, the shortcuts dialog.
 *
 * On a phone (layout.css, ≤ 700 px) one pane shows at a time: the folders (`?folders=1`, the
 * sidebar in full), the list, or the open conversation (`?thread=`). Each is an address, so
 * the browser's Back (and the system's back gesture) walks conversation → list → folders.
 */
import { getRouteApi, Outlet } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { brand } from '../brand';
import { ShortcutsDialog } from '../keyboard/ShortcutsDialog';
import { Sidebar } from '../sidebar/Sidebar';
import { inboxUnreadAtom, viewModeAtom } from '../state/atoms';
import { TopBar } from './TopBar';
import { useActiveAccountId } from '../state/current-mailbox';
import { useTimersFeed } from '../state/timers';
import { useNotificationsFeed } from '../state/notifications';
import { ComposerHost } from './ComposerHost';
import { SyncBanner } from './SyncBanner';
import { useT } from '../kit/i18n';
import { Icon } from '../kit/icons';
import { OfflineKeeper } from '../offline';
import { dispatchMailEvent, MAIL_EVENTS } from '../kit/mail-events';

const mailRoute = getRouteApi('/mail');

export function MailLayout() {
  const t = useT();
  const viewMode = useAtomValue(viewModeAtom);
  const activeAccountId = useActiveAccountId();
  // Snoozes, reminders and follow-ups of every account: the rows' marks and the conversation's times read them.
  useTimersFeed();
  // Desktop notifications the engine picks this tab to show (one tab per event).
  useNotificationsFeed();
  const pane = mailRoute.useSearch({ select: (search) => (search.folders ? 'folders' : search.thread ? 'thread' : 'list') });
  const unread = Object.values(useAtomValue(inboxUnreadAtom)).reduce((sum, count) => sum + count, 0);
  // The tab says how much is unread, like every webmail's.
  useEffect(() => {
    document.title = unread > 0 ? `(${unread.toLocaleString()}) ${brand.name}` : brand.name;
    return () => {
      document.title = brand.name;
    };
  }, [unread]);
  return (
    <div className="app-frame" data-view={viewMode} data-pane={pane}>
      <a className="skip-link" href="#thread-list">
        {t('app.skipToConversations')}
      </a>
      <Sidebar />
      <main className="app-main" aria-label={t('app.mail')}>
        <TopBar />
        <SyncBanner />
        <Outlet />
      </main>
      {/* A phone has no sidebar beside the list: its Compose floats over the list (hidden on wider screens, layout.css). */}
      <button type="button" className="compose-fab" aria-keyshortcuts="c" onClick={() => dispatchMailEvent(MAIL_EVENTS.compose, activeAccountId ? { accountId: activeAccountId } : {})}>
        <Icon name="compose" size={22} />
        <span>{t('device.compose')}</span>
      </button>
      <ShortcutsDialog />
      <OfflineKeeper />
      <ComposerHost defaultAccountId={activeAccountId} />
    </div>
  );
}
