/**
 * Desktop notifications (issue 15 point 5) in this tab: the engine decides what is news and
 * picks one tab to show each event (src-worker/notifications/); this tab shows the ones it is
 * given, when the person allowed them (Settings › Notifications asks, from a click — never
 * at load). The event's key is the browser's tag too, so one event is one notification.
 */
import { useEffect } from 'react';
import type { EngineNotification } from '../../shared/notifications';
import { useMailActions } from './actions-context';
import type { Locale } from '../../shared/locales';
import { formatPhrase } from '../../shared/strings';
import { useLocale } from '../kit/i18n';

/** Whether this browser can show notifications and has been allowed to. */
export function notificationsAllowed(): boolean {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}

function show(locale: Locale, notification: EngineNotification): boolean {
  if (!notificationsAllowed()) return false;
  // The engine sends catalogue titles as messages: this tab words them in its language.
  const title = typeof notification.title === 'string' ? notification.title : formatPhrase(locale, notification.title);
  const shown = new Notification(title, { body: notification.body, tag: notification.key });
  shown.onclick = () => {
    window.focus();
    shown.close();
  };
  return true;
}

/** This tab offers itself to show notifications, while the mail screens are open. */
export function useNotificationsFeed(): void {
  const actions = useMailActions();
  const locale = useLocale();
  useEffect(() => actions.watchNotifications((notification) => show(locale, notification)), [actions, locale]);
}
