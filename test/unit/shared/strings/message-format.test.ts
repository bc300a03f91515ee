import { expect, test } from 'vitest';
import { formatMessage, MessageSyntaxError, parseMessage } from '../../../../shared/strings/message-format';

const FILES = '{count, plural, =0 {No files} one {# file} other {# files}}';

test('interpolates values; numbers through the locale (German groups with a dot, decimals with a comma)', () => {
  expect(formatMessage('en', 'Hello {name}!', { name: 'Ada' })).toBe('Hello Ada!');
  expect(formatMessage('en', '{a} and {b}', { a: 'x', b: 'y' })).toBe('x and y');
  expect(formatMessage('en', '{n} left', { n: 12345.5 })).toBe('12,345.5 left');
  expect(formatMessage('de', '{n} übrig', { n: 12345.5 })).toBe('12.345,5 übrig');
  // A value the caller forgot shows as its placeholder, never "undefined".
  expect(formatMessage('en', 'Hi {name}')).toBe('Hi {name}');
});

test('plural: an exact =N wins over the category; # is the count in the locale', () => {
  expect(formatMessage('en', FILES, { count: 0 })).toBe('No files');
  expect(formatMessage('en', FILES, { count: 1 })).toBe('1 file');
  expect(formatMessage('en', FILES, { count: 2 })).toBe('2 files');
  expect(formatMessage('en', FILES, { count: 1500 })).toBe('1,500 files');
  expect(formatMessage('en', '{count, plural, one {one} other {#}}', { count: 1.5 })).toBe('1.5');
});

test('German plurals: one for exactly 1, other for 0, 2, 1,5 and thousands', () => {
  const de = '{count, plural, one {# Nachricht} other {# Nachrichten}}';
  expect(formatMessage('de', de, { count: 1 })).toBe('1 Nachricht');
  expect(formatMessage('de', de, { count: 0 })).toBe('0 Nachrichten');
  expect(formatMessage('de', de, { count: 2 })).toBe('2 Nachrichten');
  expect(formatMessage('de', de, { count: 1.5 })).toBe('1,5 Nachrichten');
  expect(formatMessage('de', de, { count: 2000 })).toBe('2.000 Nachrichten');
});

test('select chooses by value, other when none fits; nested in a plural and around one', () => {
  const source = '{kind, select, draft {{count, plural, one {# draft} other {# drafts}}} other {{count, plural, one {# message} other {# messages}}}} moved';
  expect(formatMessage('en', source, { kind: 'draft', count: 1 })).toBe('1 draft moved');
  expect(formatMessage('en', source, { kind: 'draft', count: 3 })).toBe('3 drafts moved');
  expect(formatMessage('en', source, { kind: 'mail', count: 1 })).toBe('1 message moved');
  // # inside a select inside a plural is still the plural's count; a name inside works too.
  const inner = '{count, plural, one {{who, select, me {I have # mail} other {{who} has # mail}}} other {{who} have # mails}}';
  expect(formatMessage('en', inner, { count: 1, who: 'me' })).toBe('I have 1 mail');
  expect(formatMessage('en', inner, { count: 1, who: 'Bo' })).toBe('Bo has 1 mail');
  expect(formatMessage('en', inner, { count: 4, who: 'They' })).toBe('They have 4 mails');
});

test('quoting: a quoted brace is text, two apostrophes are one, a lone apostrophe is itself', () => {
  expect(formatMessage('en', "Type '{name}' literally", { name: 'x' })).toBe('Type {name} literally');
  expect(formatMessage('en', "'{'{name}'}'", { name: 'x' })).toBe('{x}');
  expect(formatMessage('en', "It''s {name}''s", { name: 'Ada' })).toBe("It's Ada's");
  expect(formatMessage('en', "Don't stop", {})).toBe("Don't stop");
  expect(formatMessage('en', "{count, plural, other {'#' is # and '{x}'}}", { count: 3 })).toBe('# is 3 and {x}');
  // # outside a plural is plain text.
  expect(formatMessage('en', 'Item #{n}', { n: '4' })).toBe('Item #4');
});

test('malformed messages throw (a catalogue mistake is found by the catalogue test, not by a user)', () => {
  for (const bad of ['{name', 'a }', '{n, plural, one {x}}', '{n, number}', "'{unclosed", '{n, plural, one {x} other {y}', '{}']) {
    expect(() => parseMessage(bad), bad).toThrow(MessageSyntaxError);
  }
});
