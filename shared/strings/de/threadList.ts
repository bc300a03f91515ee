import type { threadList as en } from '../en/threadList';

export const threadList: Record<keyof typeof en, string> = {
  conversations: 'Konversationen',
  progress: '{done} von {count, plural, one {# Konversation} other {# Konversationen}}',
  progressLabel: '{verb}: Konversationen',
  searchCut: 'Angezeigt {count, plural, one {wird der neueste Treffer} other {werden die neuesten # Treffer}}; ältere fehlen. Weitere Wörter oder Operatoren (from:, before:) grenzen die Suche ein.',
  searchTheServer: 'Auf dem Server nach mehr suchen',
  serverResults: 'Ergebnisse der Suche auf dem Server, die auch den Text jeder Nachricht liest.',
  pageSelected: 'Alle {count, plural, one {# Konversation} other {# Konversationen}} auf dieser Seite sind ausgewählt.',
  selectAllIn: 'Alle {count, plural, one {# Konversation} other {# Konversationen}} in {folder} auswählen',
  allSelected: 'Alle {count, plural, one {# Konversation} other {# Konversationen}} in {folder} sind ausgewählt.',
  clearSelection: 'Auswahl aufheben',
  draft: 'Entwurf',
  sentLate: 'Verspätet gesendet',
  starred: 'Markiert',
  hasAttachments: 'Mit Anhängen',
  savingChanges: 'Änderungen werden gespeichert',
  inAccount: 'in {account}',
  toNobody: 'An: (keine Empfänger)',
  toNames: 'An: {names}',
  loadingConversation: 'Konversation wird geladen',
};
