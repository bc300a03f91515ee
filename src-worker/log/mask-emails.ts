/** Email addresses in log text keep their first 2 characters only (spec §5). */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

export function maskEmail(address: string): string {
  // Nothing after the first two characters, not even the length, is kept.
  return `${address.slice(0, 2)}***`;
}

export function maskEmails(text: string): string {
  return text.replace(EMAIL, maskEmail);
}
