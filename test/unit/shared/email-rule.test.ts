import { expect, test } from 'vitest';
import { checkEmail, isValidEmail, normalizeEmail } from '../../../shared/email-rule';

test('normalises: trimmed, lowercased, NFC; not text is refused', () => {
  expect(normalizeEmail('  Alice@Tern.TEST ')).toBe('alice@tern.test');
  expect(normalizeEmail('jose\u0301@example.com')).toBe('jos\u00e9@example.com');
  expect(normalizeEmail(42)).toBeNull();
  expect(checkEmail('  Alice@Tern.TEST ')).toEqual({ ok: true, email: 'alice@tern.test' });
});

test.each([
  'alice@tern.test',
  'first.last+tag@mail.example.co.uk',
  'a@b.io',
  'o_neil-2@sub-domain.example.org',
  'josé@exämple.de',
])('accepts %s', (email) => {
  expect(isValidEmail(email)).toBe(true);
});

test.each([
  ['no @', 'alice.tern.test'],
  ['two @', 'alice@@tern.test'],
  ['no domain dot', 'alice@localhost'],
  ['consecutive dots (local)', 'alice..b@tern.test'],
  ['consecutive dots (domain)', 'alice@tern..test'],
  ['whitespace', 'ali ce@tern.test'],
  ['<', 'alice<@tern.test'],
  ['comma', 'a,b@tern.test'],
  ['semicolon', 'a;b@tern.test'],
  ['parentheses', 'a(b)@tern.test'],
  ['brackets', 'a[b]@tern.test'],
  ['double quote', '"a"@tern.test'],
  ['single quote', "o'neil@tern.test"],
  ['starts with a dot', '.alice@tern.test'],
  ['ends with a dash', 'alice-@tern.test'],
  ['domain label starting with a dash', 'alice@-tern.test'],
  ['domain ending with a dot', 'alice@tern.test.'],
  ['empty', ''],
  ['too long', `${'a'.repeat(250)}@tern.test`],
])('refuses %s', (_why, email) => {
  expect(checkEmail(email)).toEqual({ ok: false, error: 'InvalidMail' });
});
