import type { device as en } from '../en/device';

export const device: Readonly<Record<keyof typeof en, string>> = {
  folders: 'Ordner',
  compose: 'Schreiben',
  swipeArchive: 'Archivieren',
  swipeDelete: 'Löschen',
  updateReady: 'Eine neue Version ist bereit.',
  reload: 'Neu laden',
};
