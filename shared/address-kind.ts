/**
 * Spec §5: an address is likely not a person when it matches the no-reply, bounce,
 * notification, support, alert, news, info, automated, list, distribute or catch-all
 * patterns, or is longer than 64 characters. Such addresses are never suggested before
 * people (autocomplete, contacts' ranks).
 *
 * The patterns look at the local part's words (split at . _ - +, digits allowed after a
 * word: `alerts2`, `bounces+x`), so `info@` and `news-letter@` match while `justine@` or
 * `Newsome@` do not.
 */

export const NON_HUMAN_ADDRESS_MAX_LENGTH = 64;

const ROLE_WORDS = [
  'no-?reply', 'do-?not-?reply', 'donotreply',
  'bounces?',
  'notifications?', 'notify', 'notifier',
  'support',
  'alerts?',
  'news', 'newsletters?',
  'info',
  'automated', 'auto-?mailer',
  'lists?', 'mailing-?lists?', 'listserv',
  'distribute', 'distribution',
  'catch-?all',
].join('|');

/** A role word that fills the local part or one of its .-_+ separated words. */
const ROLE_LOCAL_PART = new RegExp(`(?:^|[._+-])(?:${ROLE_WORDS})\\d*(?:$|[._+-])`, 'i');

export function isLikelyNonHumanAddress(email: string): boolean {
  const address = email.trim();
  if (address.length > NON_HUMAN_ADDRESS_MAX_LENGTH) return true;
  const at = address.lastIndexOf('@');
  const local = at >= 0 ? address.slice(0, at) : address;
  return ROLE_LOCAL_PART.test(local);
}
