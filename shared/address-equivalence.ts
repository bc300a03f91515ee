/**
 * Address equivalence (spec §5): two addresses are the same mailbox when they match
 * ignoring case and any `+suffix` in the local part (`Ann+news@x.org` is `ann@x.org`).
 */

/** The form two equivalent addresses share. */
export function addressKey(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  const local = lower.slice(0, at);
  const plus = local.indexOf('+');
  return (plus > 0 ? local.slice(0, plus) : local) + lower.slice(at);
}

export function sameAddress(a: string, b: string): boolean {
  return addressKey(a) === addressKey(b);
}
