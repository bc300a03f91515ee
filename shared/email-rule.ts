/**
 * The email rule of spec §5, for checking an address before it is sent anywhere:
 * text, trimmed and lowercased, a local part, an @, then a domain with a dot, then a
 * further normaliser (Unicode NFC). The strict pattern forbids consecutive dots,
 * whitespace and the characters < > , ; ( ) [ ] and quotes, and wants a letter or a
 * digit at the start and the end of the local part and of every domain label.
 */

/** Longest address SMTP carries (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;

/** Characters the strict pattern forbids anywhere in an address. */
const FORBIDDEN = /[\s<>,;()[\]"'`]/u;
const LOCAL_PART = /^[\p{L}\p{N}](?:[^@]*[\p{L}\p{N}])?$/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

/** Trims, lowercases and NFC-normalises; null for anything that is not text. */
export function normalizeEmail(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  return input.trim().toLowerCase().normalize('NFC');
}

/** Whether an already normalised address passes the strict pattern. */
function passesStrictPattern(email: string): boolean {
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH) return false;
  if (FORBIDDEN.test(email) || email.includes('..')) return false;
  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@')) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label));
}

export type EmailCheck = { readonly ok: true; readonly email: string } | { readonly ok: false; readonly error: 'InvalidMail' };

/** Checks an address typed by a person; on success returns it normalised. */
export function checkEmail(input: unknown): EmailCheck {
  const email = normalizeEmail(input);
  return email !== null && passesStrictPattern(email) ? { ok: true, email } : { ok: false, error: 'InvalidMail' };
}

export function isValidEmail(input: unknown): boolean {
  return checkEmail(input).ok;
}
