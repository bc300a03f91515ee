import type { folders as en } from '../en/folders';

export const folders: Record<keyof typeof en, string> = {
  inbox: 'Posteingang',
  snoozed: 'Zurückgestellt',
  flagged: 'Markiert',
  drafts: 'Entwürfe',
  sent: 'Gesendet',
  archive: 'Archiv',
  all: 'Alle Nachrichten',
  junk: 'Spam',
  trash: 'Papierkorb',
  allOf:
    '{role, select, inbox {Alle Posteingänge} snoozed {Zurückgestellt} flagged {Alle markierten} drafts {Alle Entwürfe} sent {Alle gesendeten} archive {Alle Archive} all {Alle Nachrichten} junk {Spam (alle Konten)} other {Papierkorb (alle Konten)}}',
};
