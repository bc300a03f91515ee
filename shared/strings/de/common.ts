import type { common as en } from '../en/common';

export const common: Record<keyof typeof en, string> = {
  cancel: 'Abbrechen',
  close: 'Schließen',
  save: 'Speichern',
  delete: 'Löschen',
  ok: 'OK',
  retry: 'Erneut versuchen',
  loading: 'Wird geladen…',
  reload: 'Neu laden',
  undo: 'Rückgängig',
  dismiss: 'Ausblenden',
};
