/** How a thread row reads: the time column and the senders column. */
import type { Address } from '../../shared/api/mail';

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** Today: "14:05"; this year: "Mar 4"; older: "3/4/24" (in the reader's locale). */
export function formatListTime(epochMs: number, now: number = Date.now(), locale?: string): string {
  const date = new Date(epochMs);
  const today = new Date(now);
  if (sameDay(date, today)) return date.toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
  if (date.getFullYear() === today.getFullYear()) return date.toLocaleDateString(locale, { month: 'short', day: 'numeric' });
  return date.toLocaleDateString(locale, { year: '2-digit', month: 'numeric', day: 'numeric' });
}

/** The full date for the row's tooltip and accessible name. */
export function formatFullTime(epochMs: number, locale?: string): string {
  return new Date(epochMs).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

const displayName = (address: Address) => address.name.trim() || address.email;
const firstName = (address: Address) => (address.name.trim().split(/\s+/)[0] ?? '') || address.email.split('@')[0] || address.email;

/**
 * Who is in the thread: one sender by full name; several by first names, the user's own
 * addresses shown as "me", at most three, then the message count when above one.
 */
export function sendersLabel(participants: readonly Address[], messageCount: number, ownEmails: ReadonlySet<string> = new Set()): string {
  const name = (address: Address, short: boolean) => (ownEmails.has(address.email.toLowerCase()) ? 'me' : short ? firstName(address) : displayName(address));
  const count = messageCount > 1 ? ` (${messageCount})` : '';
  if (participants.length === 0) return `(no sender)${count}`;
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
