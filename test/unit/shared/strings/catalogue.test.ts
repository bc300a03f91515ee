import { expect, test } from 'vitest';
import { ERROR_CATALOGUE } from '../../../../shared/errors';
import { LOCALES } from '../../../../shared/preferences';
import { allMessageIds, format, formatPhrase, messageSource, type MessageId } from '../../../../shared/strings';
import { de } from '../../../../shared/strings/de';
import { en } from '../../../../shared/strings/en';
import { messageArguments, parseMessage } from '../../../../shared/strings/message-format';

test('every message parses in every locale, and German uses the same arguments as English', () => {
  const ids = allMessageIds();
  expect(ids.length).toBeGreaterThan(50);
  for (const id of ids) {
    for (const locale of LOCALES) expect(() => parseMessage(messageSource(locale, id)), `${locale} ${id}`).not.toThrow();
    expect(messageArguments(messageSource('de', id)), id).toEqual(messageArguments(messageSource('en', id)));
  }
});

test('German is complete: the same areas and keys as English, none left in English by mistake', () => {
  expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  for (const area of Object.keys(en) as (keyof typeof en)[]) expect(Object.keys(de[area]).sort(), area).toEqual(Object.keys(en[area]).sort());
  // Words that are the same in both languages are fine; whole English sentences are not.
  const words = (id: MessageId) => messageSource('en', id).replace(/\{[^{}]*\}/g, '').trim();
  const same = allMessageIds().filter((id) => messageSource('de', id) === messageSource('en', id) && words(id).includes(' '));
  expect(same).toEqual([]);
});

test('the error descriptions the UI shows in English are the gateway’s catalogue', () => {
  for (const [name, entry] of Object.entries(ERROR_CATALOGUE)) expect(format('en', `errors.${name}` as never)).toBe(entry.description);
});

test('ids format in the asked locale; phrases join their parts', () => {
  expect(format('en', 'login.signIn')).toBe('Sign in');
  expect(format('de', 'login.signIn')).toBe('Anmelden');
  expect(format('de', 'login.restoredDrafts', { count: 1 })).toBe('1 nicht gesendete Nachricht wurde in „Entwürfe“ wiederhergestellt.');
  expect(formatPhrase('en', [{ id: 'login.sessionEnded', values: { email: 'a@b.test' } }, 'verbatim'])).toBe('Your session for a@b.test ended. Sign in again. verbatim');
});
