/**
 * The password rules of spec §5, for passwords Tern itself owns (a future reset or
 * app-password screen). They are NOT applied at sign-in: there the password belongs to the
 * person's mail provider, whose rules Tern does not know, so any non-empty password is
 * tried against the server.
 *
 * Strict: 8 to 100 characters, at least one letter, one digit and one special character
 * from the listed set; other characters are not allowed. Simple: 6 or more characters.
 */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 100;
export const SIMPLE_PASSWORD_MIN_LENGTH = 6;

/** The special characters the spec lists: space and ASCII punctuation. */
export const PASSWORD_SPECIAL_CHARACTERS = ' !"#$%&\'()*+,./:;<=>?@[\\]^_`{|}~-';

const LETTER = /[A-Za-z]/;
const DIGIT = /[0-9]/;
const isSpecial = (char: string) => PASSWORD_SPECIAL_CHARACTERS.includes(char);
const isAllowed = (char: string) => LETTER.test(char) || DIGIT.test(char) || isSpecial(char);

/** Why a password fails the strict rule, first reason first. */
export type PasswordProblem = 'not-text' | 'too-short' | 'too-long' | 'no-letter' | 'no-digit' | 'no-special' | 'character-not-allowed';

export type PasswordCheck = { readonly ok: true } | { readonly ok: false; readonly problem: PasswordProblem };

/** The strict rule. */
export function checkPassword(input: unknown): PasswordCheck {
  if (typeof input !== 'string') return { ok: false, problem: 'not-text' };
  // Code points, not UTF-16 units: an emoji is one character to the person typing it.
  const chars = [...input];
  if (chars.length < PASSWORD_MIN_LENGTH) return { ok: false, problem: 'too-short' };
  if (chars.length > PASSWORD_MAX_LENGTH) return { ok: false, problem: 'too-long' };
  if (!chars.every(isAllowed)) return { ok: false, problem: 'character-not-allowed' };
  if (!LETTER.test(input)) return { ok: false, problem: 'no-letter' };
  if (!DIGIT.test(input)) return { ok: false, problem: 'no-digit' };
  if (!chars.some(isSpecial)) return { ok: false, problem: 'no-special' };
  return { ok: true };
}

/** The simpler check: 6 or more characters. */
export function passesSimplePasswordCheck(input: unknown): boolean {
  return typeof input === 'string' && [...input].length >= SIMPLE_PASSWORD_MIN_LENGTH;
}
