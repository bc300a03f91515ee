/**
 * Small input patterns of spec §5: numeric-only values (codes, counts typed by a person)
 * and the gift-recipient fields, whose email and name patterns accept letters only (the
 * spec's words; "letters" is Unicode letters, so Zoë and Łukasz pass).
 */

const NUMERIC_ONLY = /^[0-9]+$/;
const LETTERS_ONLY = /^\p{L}+$/u;

/** Digits only, at least one. */
export function isNumericOnly(value: string): boolean {
  return NUMERIC_ONLY.test(value);
}

/** The gift recipient's name: letters only. */
export function isValidGiftRecipientName(value: string): boolean {
  return LETTERS_ONLY.test(value.normalize('NFC'));
}

/** The gift recipient's email field, as the spec gives it: letters only. */
export function isValidGiftRecipientEmail(value: string): boolean {
  return LETTERS_ONLY.test(value.normalize('NFC'));
}
