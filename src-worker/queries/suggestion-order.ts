/**
 * The order of recipient suggestions (spec §3 Contact): people before addresses that are
 * likely not a person (spec §5: no-reply, notifications, lists… — one writes to them rarely,
 * even when they write often), then the compose rank (the person written to most comes first
 * after one letter), then cards before bare addresses, then the last time the address was
 * seen. What matches a prefix is suggestion-index.ts.
 */
import { isLikelyNonHumanAddress } from '../../shared/address-kind';
import type { Address } from '../../shared/api/mail';

export interface SuggestionCandidate {
  readonly address: Address;
  readonly rank: number;
  readonly lastAt: number;
  readonly card?: boolean;
  /** isLikelyNonHumanAddress of the address, when known already. */
  readonly machine?: boolean;
}

const machine = (candidate: SuggestionCandidate) => candidate.machine ?? isLikelyNonHumanAddress(candidate.address.email);

/** Negative when `a` comes first; the address breaks the last ties, so the order never depends on how candidates were met. */
export function compareSuggestions(a: SuggestionCandidate, b: SuggestionCandidate): number {
  return (
    Number(machine(a)) - Number(machine(b)) ||
    b.rank - a.rank ||
    Number(b.card ?? false) - Number(a.card ?? false) ||
    b.lastAt - a.lastAt ||
    (a.address.email < b.address.email ? -1 : a.address.email > b.address.email ? 1 : 0)
  );
}

export function orderSuggestions(candidates: Iterable<SuggestionCandidate>, limit: number): Address[] {
  return [...candidates]
    .sort(compareSuggestions)
    .slice(0, limit)
    .map((candidate) => candidate.address);
}
