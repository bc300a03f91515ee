import { expect, test } from 'vitest';
import { PASSWORD_SPECIAL_CHARACTERS, checkPassword, passesSimplePasswordCheck } from '../../../shared/password-rule';

test.each(['Tern-demo-1!', 'abcdefg1 ', 'A1~aaaaa', `x9${'-'.repeat(98)}`, 'pass word 1'])('the strict rule accepts %j', (password) => {
  expect(checkPassword(password)).toEqual({ ok: true });
});

test.each([
  ['Ab1!xyz', 'too-short'], // 7 characters
  [`Ab1!${'x'.repeat(97)}`, 'too-long'], // 101 characters
  ['12345678!', 'no-letter'],
  ['abcdefgh!', 'no-digit'],
  ['abcdefg12', 'no-special'],
  ['abcdéfg1!', 'character-not-allowed'], // é is not in the spec's letters
  ['abcdefg1!\t', 'character-not-allowed'], // a tab is not a listed special character
  ['abcdefg1€', 'character-not-allowed'],
] as const)('the strict rule refuses %j: %s', (password, problem) => {
  expect(checkPassword(password)).toEqual({ ok: false, problem });
});

test('lengths are counted in characters a person types: 8 and 100 are the bounds', () => {
  expect(checkPassword(`Ab1!${'x'.repeat(4)}`)).toEqual({ ok: true });
  expect(checkPassword(`Ab1!${'x'.repeat(96)}`)).toEqual({ ok: true });
  expect(checkPassword(42)).toEqual({ ok: false, problem: 'not-text' });
});

test('every special character of the spec counts as the special one', () => {
  expect([...PASSWORD_SPECIAL_CHARACTERS]).toHaveLength(33); // space plus the 32 ASCII punctuation marks
  for (const special of PASSWORD_SPECIAL_CHARACTERS) expect(checkPassword(`abcdef1${special}`)).toEqual({ ok: true });
});

test('the simple check wants 6 or more characters', () => {
  expect(passesSimplePasswordCheck('12345')).toBe(false);
  expect(passesSimplePasswordCheck('123456')).toBe(true);
  expect(passesSimplePasswordCheck('ééééé')).toBe(false);
  expect(passesSimplePasswordCheck(null)).toBe(false);
});
