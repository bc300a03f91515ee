/** How a message header reads: names and recipients (its dates are kit/date-format.ts). */
import type { Locale } from '../../shared/locales';
import { format } from '../../shared/strings';
import type { Address } from '../../shared/api/mail';
import { sameAddress } from '../../shared/address-equivalence';
import { cleanName, displayName, shortName } from '../kit/person-name';

export { displayName, initials } from '../kit/person-name';

/** "Name <address>", or the address alone: the whole sender, for a tooltip where the header cuts it. */
export const senderLine = (address: Address) => (cleanName(address.name) ? `${cleanName(address.name)} <${address.email}>` : address.email);

const isOwn = (email: string, own: readonly string[]) => own.some((mine) => sameAddress(mine, email));

/** "me", or the name for one of the recipients (short names once there are two or more). */
function recipientName(address: Address, own: readonly string[], short: boolean, locale: Locale): string {
  if (isOwn(address.email, own)) return format(locale, 'conversation.me');
  return short ? shortName(address) : displayName(address);
}

/** "to me, Bob and 2 others" for a collapsed header line. */
export function recipientSummary(to: readonly Address[], cc: readonly Address[], own: readonly string[], locale: Locale = 'en'): string {
  const all = [...to, ...cc];
  if (all.length === 0) return format(locale, 'conversation.toUndisclosed');
  const short = all.length > 1; // "to Smith, John, me" would read as three people
  const names = all.slice(0, 3).map((address) => recipientName(address, own, short, locale));
  const rest = all.length - names.length;
  return format(locale, 'conversation.toRecipients', { names: names.join(', '), rest });
}

/**
 * Which messages start expanded: the newest, and every unread one (the reader has not
 * seen them yet). Drafts stay collapsed unless they are the newest.
 */
export function initiallyExpanded(messages: readonly { id: string; unread: boolean }[]): Set<string> {
  const open = new Set<string>();
  for (const message of messages) if (message.unread) open.add(message.id);
  const newest = messages.at(-1);
  if (newest) open.add(newest.id);
  return open;
}
