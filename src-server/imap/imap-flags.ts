// IMAP flags and mailbox attributes are case-insensitive (RFC 3501 §2.3.2 and §7.2.2,
// RFC 6154): Dovecot writes `\Sent` and `\Seen`, Cyrus writes `\sent` and `\archive`,
// and both are right. Every comparison of a flag or attribute goes through here.
import type { SpecialUse } from '../../shared/api/mail';

/** True when the two flags (or attributes) are the same flag. Flag names are ASCII. */
export function sameFlag(a: string, b: string): boolean {
  return a.length === b.length && a.toLowerCase() === b.toLowerCase();
}

/** True when `flags` holds `flag` in any spelling. */
export function hasFlag(flags: Iterable<string>, flag: string): boolean {
  for (const candidate of flags) if (sameFlag(candidate, flag)) return true;
  return false;
}

const SYSTEM_FLAGS = ['\\Seen', '\\Answered', '\\Flagged', '\\Deleted', '\\Draft', '\\Recent'];
const CANONICAL = new Map(SYSTEM_FLAGS.map((flag) => [flag.toLowerCase(), flag]));

/**
 * The system flags in RFC 3501's spelling (`\seen` → `\Seen`); keywords as the server sent
 * them. The mirror stores flags this way, so a stored `\Seen` means seen on any server.
 */
export function canonicalFlag(flag: string): string {
  return CANONICAL.get(flag.toLowerCase()) ?? flag;
}

const SPECIAL_USE_ATTRIBUTES = new Map<string, SpecialUse>([
  ['\\all', 'all'],
  ['\\archive', 'archive'],
  ['\\drafts', 'drafts'],
  ['\\flagged', 'flagged'],
  ['\\junk', 'junk'],
  ['\\sent', 'sent'],
  ['\\trash', 'trash'],
]);

/** The folder's role from its RFC 6154 attributes in a LIST reply (`\Sent`, `\sent` …), or null. */
export function specialUseAttribute(attributes: Iterable<string>): SpecialUse | null {
  for (const attribute of attributes) {
    const role = SPECIAL_USE_ATTRIBUTES.get(attribute.toLowerCase());
    if (role) return role;
  }
  return null;
}
