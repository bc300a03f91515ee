/** How a thread row reads: the time column and the senders column. */
import type { Locale } from '../../shared/preferences';
import { format } from '../../shared/strings';
import type { Address } from '../../shared/api/mail';
import type { ThreadRow } from '../../shared/worker-mail-api';
import { displayName, shortName } from '../kit/person-name';
import { dateFormat } from './date-format-cache';

const TIME_OPTIONS: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const THIS_YEAR_OPTIONS: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' };
const OLDER_OPTIONS: Intl.DateTimeFormatOptions = { year: '2-digit', month: 'numeric', day: 'numeric' };
const FULL_OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** A day's date column ("Mar 4", "3/4/24") by locale, day and whether it is this year; rows of one day share it. */
const dayLabels = new Map<string, string>();
const MAX_DAY_LABELS = 5_000;

/** Today: "14:05"; this year: "Mar 4"; older: "3/4/24" (in the reader's locale). */
export function formatListTime(epochMs: number, now: number = Date.now(), locale?: string): string {
  const date = new Date(epochMs);
  const today = new Date(now);
  const year = date.getFullYear();
  const month = date.getMonth();
  const day = date.getDate();
  if (day === today.getDate() && month === today.getMonth() && year === today.getFullYear()) return dateFormat(locale, TIME_OPTIONS).format(date);
  const thisYear = year === today.getFullYear();
  const key = `${locale ?? ''}|${year}-${month}-${day}|${thisYear ? 1 : 0}`;
  let label = dayLabels.get(key);
  if (label === undefined) {
    label = dateFormat(locale, thisYear ? THIS_YEAR_OPTIONS : OLDER_OPTIONS).format(date);
    if (dayLabels.size >= MAX_DAY_LABELS) dayLabels.clear();
    dayLabels.set(key, label);
  }
  return label;
}

/** The full date for the row's tooltip and accessible name. */
export function formatFullTime(epochMs: number, locale?: string): string {
  return dateFormat(locale, FULL_OPTIONS).format(epochMs);
}

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
