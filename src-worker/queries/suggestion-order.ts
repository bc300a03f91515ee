/**
 * Recipient suggestions from the Contact table (spec §3): the address book's cards (rows
 * `card:<id>`, is_personal_contact) and the addresses seen in mail with their compose ranks
 * (mail-store/contact-tally.ts). Order: people before addresses that are likely not a person
 * (spec §5: no-reply, notifications, lists… — one writes to them rarely, even when they write
 * often), then the compose rank (the person written to most comes first after one letter), then
 * cards before bare addresses, then the last time the address was seen. An address the person
 * removed from the suggestions (`forgotten`) is left out unless a card holds it.
 */
import { isLikelyNonHumanAddress } from '../../shared/address-kind';
import type { Address } from '../../shared/api/mail';
import type { ContactList } from '../../shared/api/contact-lists';
import { contactDisplayName, type Contact } from '../../shared/contacts';
import type { SuggestedAddress } from '../../shared/worker-mail-api';
import type { StoredRow } from '../db/store';

export interface SuggestionCandidate {
  readonly address: Address;
  readonly rank: number;
  readonly lastAt: number;
  readonly card?: boolean;
}

export function orderSuggestions(candidates: Iterable<SuggestionCandidate>, limit: number): Address[] {
  return [...candidates]
    .map((candidate) => ({ candidate, machine: isLikelyNonHumanAddress(candidate.address.email) }))
    .sort(
      (a, b) =>
        Number(a.machine) - Number(b.machine) ||
        b.candidate.rank - a.candidate.rank ||
        Number(b.candidate.card ?? false) - Number(a.candidate.card ?? false) ||
        b.candidate.lastAt - a.candidate.lastAt,
    )
    .slice(0, limit)
    .map(({ candidate }) => candidate.address);
}

/** The address starts with the prefix, or a word of a name does. */
const matches = (needle: string, email: string, names: readonly string[]) =>
  email.startsWith(needle) || names.some((name) => name.toLowerCase().split(/\s+/).some((word) => word.startsWith(needle)));

/** The candidates of one account's Contact rows for a typed prefix, one per address (the best). */
export function suggestionCandidates(rows: readonly StoredRow[], needle: string, into: Map<string, SuggestionCandidate>): void {
  const ranks = new Map<string, StoredRow>();
  const cards: Contact[] = [];
  for (const row of rows) {
    if (row.is_personal_contact === 1 && row.card) {
      if (row.deleted !== 1) cards.push(row.card as Contact);
    } else ranks.set(String(row.email ?? row.id).toLowerCase(), row);
  }
  const offer = (candidate: SuggestionCandidate) => {
    const earlier = into.get(candidate.address.email);
    if (!earlier || earlier.rank < candidate.rank || (earlier.rank === candidate.rank && candidate.card && !earlier.card)) into.set(candidate.address.email, candidate);
  };
  const inCards = new Set<string>();
  for (const card of cards) {
    const name = contactDisplayName(card);
    for (const raw of card.emails) {
      const email = raw.toLowerCase();
      inCards.add(email);
      if (!matches(needle, email, [card.firstName, card.lastName, card.company])) continue;
      const seen = ranks.get(email);
      offer({ address: { name: `${card.firstName} ${card.lastName}`.trim() || name, email }, rank: Number(seen?.mailComposeRank ?? 0), lastAt: Number(seen?.last_seen_at ?? 0), card: true });
    }
  }
  for (const [email, row] of ranks) {
    if (row.forgotten === 1 && !inCards.has(email)) continue;
    const name = String(row.name ?? '');
    if (!matches(needle, email, [name])) continue;
    offer({ address: { name, email }, rank: Number(row.mailComposeRank ?? 0), lastAt: Number(row.last_seen_at ?? 0) });
  }
}

/** Lists whose name has a word starting with the prefix, each with its members' first addresses (cards without one left out; a list with no address none). */
export function listSuggestions(rows: readonly StoredRow[], lists: readonly ContactList[], needle: string): SuggestedAddress[] {
  const matching = lists.filter((list) => list.name.toLowerCase().split(/\s+/).some((word) => word.startsWith(needle)));
  if (matching.length === 0) return [];
  const cards = new Map<string, Contact>();
  for (const row of rows) if (row.is_personal_contact === 1 && row.card && row.deleted !== 1) cards.set((row.card as Contact).id, row.card as Contact);
  return matching.flatMap((list) => {
    const members = list.memberIds.flatMap((id) => {
      const card = cards.get(id);
      const email = card?.emails[0];
      return card && email ? [{ name: `${card.firstName} ${card.lastName}`.trim() || contactDisplayName(card), email }] : [];
    });
    return members.length > 0 ? [{ name: list.name, email: `list:${list.id}`, members }] : [];
  });
}
