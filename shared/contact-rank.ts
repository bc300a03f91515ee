/**
 * Compose and search ranks of addresses (spec §3 Contact mailComposeRank / mailSearchRank),
 * from the person's own mail: a frecency Σ w(kind)·2^(−age/halfLife) with a 60-day half-life
 * (next-features §7), where writing to someone weighs more than hearing from them.
 *
 * Stored without ever being decayed: each sighting adds w·2^((t − RANK_EPOCH)/halfLife),
 * which grows with time instead of the old sightings shrinking. Every stored rank would decay
 * by the same factor at any moment, so comparing the stored numbers is comparing the decayed
 * ranks, and a new message is one addition, never a pass over the whole table.
 */
import type { Address, MessageMeta } from './api/mail';

export const RANK_HALF_LIFE_MS = 60 * 24 * 60 * 60 * 1000;
/** 2020-01-01: ranks are relative to it (2^(t/halfLife) grows ~6 doublings a year: far from overflow). */
export const RANK_EPOCH_MS = Date.UTC(2020, 0, 1);

/** What one message says about each address on it, by kind. */
export const RANK_WEIGHTS = {
  /** The person wrote to them (To). */
  sentTo: { compose: 1, search: 1 },
  /** The person copied them (Cc). */
  sentCc: { compose: 0.5, search: 0.5 },
  /** They wrote to the person. */
  receivedFrom: { compose: 0.3, search: 1 },
  /** Copied on mail the person received. */
  receivedAlso: { compose: 0, search: 0.2 },
} as const;

/** The weight of a sighting at `at` (epoch ms) in the stored, undecayed scale. */
export function rankGrowth(at: number): number {
  return 2 ** ((at - RANK_EPOCH_MS) / RANK_HALF_LIFE_MS);
}

/** A stored rank as of `now`, for display or thresholds (1 = one fresh sent-to). */
export function decayedRank(stored: number, now: number): number {
  return stored / rankGrowth(now);
}

export interface RankSighting {
  readonly address: Address;
  readonly compose: number;
  readonly search: number;
  /** The person wrote to this address (the spec's is_searched_or_sent). */
  readonly sent: boolean;
}

const key = (address: Address) => address.email.trim().toLowerCase();

/**
 * What a message adds to each address on it: `sent` when the person sent it (it is in Sent,
 * or from one of their addresses). Their own addresses are left out; an address on it twice
 * counts once, with the heavier kind.
 */
export function rankSightings(message: Pick<MessageMeta, 'from' | 'to' | 'cc' | 'date' | 'receivedAt'>, options: { sent: boolean; own?: ReadonlySet<string> }): RankSighting[] {
  const growth = rankGrowth(message.receivedAt || message.date);
  const kinds: [readonly Address[], keyof typeof RANK_WEIGHTS][] = options.sent
    ? [
        [message.to, 'sentTo'],
        [message.cc, 'sentCc'],
      ]
    : [
        [message.from, 'receivedFrom'],
        [message.to, 'receivedAlso'],
        [message.cc, 'receivedAlso'],
      ];
  const byEmail = new Map<string, RankSighting>();
  for (const [addresses, kind] of kinds) {
    const weight = RANK_WEIGHTS[kind];
    for (const address of addresses) {
      const email = key(address);
      if (!email.includes('@') || options.own?.has(email)) continue;
      const earlier = byEmail.get(email);
      if (earlier && earlier.compose >= weight.compose * growth && earlier.search >= weight.search * growth) continue;
      byEmail.set(email, { address: { name: address.name.trim(), email }, compose: weight.compose * growth, search: weight.search * growth, sent: options.sent });
    }
  }
  return [...byEmail.values()];
}
