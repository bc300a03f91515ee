import type { app as en } from '../en/app';

export const app: Record<keyof typeof en, string> = {
  notifications: 'Benachrichtigungen',
  dismissNotification: 'Benachrichtigung schließen',
  searchResults: 'Suchergebnisse',
};
