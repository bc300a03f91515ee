/** How a thread row reads: the senders column (its time column is kit/date-format.ts). */
import type { Locale } from '../../shared/locales';
import { format } from '../../shared/strings';
import type { Address } from '../../shared/api/mail';
import type { ThreadRow } from '../../shared/worker-mail-api';
import { displayName, shortName } from '../kit/person-name';

/**
 * Who is in the thread: one sender by full name; several by short names ("John" for
 * "Smith, John"), the user's own addresses shown as "me", at most three, then the message
 * count when above one.
 */
export function sendersLabel(participants: readonly Address[], messageCount: number, ownEmails: ReadonlySet<string> = new Set(), locale: Locale = 'en'): string {
  const name = (address: Address, short: boolean) => (ownEmails.has(address.email.toLowerCase()) ? format(locale, 'conversation.me') : short ? shortName(address) : displayName(address));
  const count = messageCount > 1 ? ` (${messageCount})` : '';
  if (participants.length === 0) return `${format(locale, 'conversation.noSender')}${count}`;
  if (participants.length === 1) return name(participants[0] as Address, false) + count;
  const names = participants.slice(-3).map((address) => name(address, true));
  return names.join(', ') + count;
}

/** The address whose avatar the row shows: the newest participant that is not the user. */
export function avatarAddress(participants: readonly Address[], ownEmails: ReadonlySet<string> = new Set()): Address | undefined {
  for (let i = participants.length - 1; i >= 0; i--) {
    const address = participants[i] as Address;
    if (!ownEmails.has(address.email.toLowerCase())) return address;
  }
  return participants.at(-1);
}

/** A draft's row (ThreadRow.draftTo): whom it is to, named as senders are ("To: Bob", "To: Bob, Carol"), not "me". */
export function draftRecipientsLabel(draftTo: readonly Address[], ownEmails: ReadonlySet<string> = new Set(), locale: Locale = 'en'): string {
  return draftTo.length === 0 ? format(locale, 'threadList.toNobody') : format(locale, 'threadList.toNames', { names: sendersLabel(draftTo.slice(0, 3), 1, ownEmails, locale) });
}

/** The row's names column: a draft's recipients, else the thread's senders. */
export const rowNamesLabel = (row: Pick<ThreadRow, 'participants' | 'messageCount' | 'draftTo'>, ownEmails: ReadonlySet<string> = new Set(), locale: Locale = 'en'): string =>
  row.draftTo ? draftRecipientsLabel(row.draftTo, ownEmails, locale) : sendersLabel(row.participants, row.messageCount, ownEmails, locale);
