import type { attachments as en } from '../en/attachments';

export const attachments: Record<keyof typeof en, string> = {
  attachments: 'Anhänge',
  count: '{count, plural, one {# Anhang} other {# Anhänge}}',
  untitled: 'Unbenannter Anhang',
  previewNamed: 'Vorschau von {name} ({size})',
  downloadNamed: '{name} herunterladen ({size})',
  downloadName: '{name} herunterladen',
  download: 'Herunterladen',
  loading: 'Wird geladen:',
  couldNotBeOpened: 'konnte nicht geöffnet werden.',
  previousAttachment: 'Vorheriger Anhang',
  position: '{index} von {count}',
  nextAttachment: 'Nächster Anhang',
  openInNewTab: 'In neuem Tab öffnen',
  openNamedInNewTab: '{name} in neuem Tab öffnen',
  closePreview: 'Vorschau schließen',
};
