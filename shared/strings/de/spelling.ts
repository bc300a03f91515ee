import type { spelling as en } from '../en/spelling';

export const spelling: Record<keyof typeof en, string> = {
  language: 'Sprache der Rechtschreibprüfung',
  english: 'English',
  german: 'Deutsch',
  suggestions: 'Vorschläge für {word}',
  loading: 'Suche Vorschläge …',
  noSuggestions: 'Keine Vorschläge',
  addToDictionary: 'Zum Wörterbuch hinzufügen',
  added: '{word} steht jetzt in Ihrem Wörterbuch.',
  notAdded: '{word} wurde nicht hinzugefügt. {reason}',
  listFull: 'Ihr Wörterbuch enthält {limit} Wörter, mehr geht nicht. Entfernen Sie einige unter Einstellungen → Rechtschreibprüfung.',
  keyHint: 'Vorschläge für ein markiertes Wort: Rechtsklick darauf, oder den Cursor hineinsetzen und Strg+. drücken.',
  defaultLanguage: 'Rechtschreibung prüfen auf',
  languageAuto: 'Sprache der App',
  words: 'Ihr Wörterbuch',
  wordsIntro: 'Wörter, die Sie mit „Zum Wörterbuch hinzufügen“ aufgenommen haben. Sie werden auf keinem Gerät markiert.',
  noWords: 'Noch keine Wörter.',
  removeWord: '{word} entfernen',
  wordRemoved: '{word} entfernt.',
};
