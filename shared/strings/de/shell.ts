import type { shell as en } from '../en/shell';

export const shell: Record<keyof typeof en, string> = {
  mail: 'E-Mail',
  reload: 'Neu laden',
  starting: 'E-Mail-Modul wird gestartet…',
  failed: 'Das E-Mail-Modul konnte nicht starten: {reason}',
  opening: 'E-Mails werden geöffnet…',
  newerVersion: 'Eine neuere Version ist verfügbar. Diesen Tab neu laden, um fortzufahren.',
};
