/**
 * The order of recipient suggestions: people before addresses that are likely not a person
 * (spec §5: no-reply, notifications, lists… — one writes to them rarely, even when they write
 * often), then by rank, then by the last time the address was seen.
 */
import { isLikelyNonHumanAddress } from '../../shared/address-kind';
import type { Address } from '../../shared/api/mail';

export interface SuggestionCandidate {
  readonly address: Address;
  readonly rank: number;
  readonly lastAt: number;
}

export function orderSuggestions(candidates: Iterable<SuggestionCandidate>, limit: number): Address[] {
  return [...candidates]
    .map((candidate) => ({ candidate, machine: isLikelyNonHumanAddress(candidate.address.email) }))
    .sort((a, b) => Number(a.machine) - Number(b.machine) || b.candidate.rank - a.candidate.rank || b.candidate.lastAt - a.candidate.lastAt)
    .slice(0, limit)
    .map(({ candidate }) => candidate.address);
}
