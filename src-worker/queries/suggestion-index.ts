/**
 * One account's recipient suggestions, kept in the worker's memory (issue 18: a keystroke
 * answers within 30 ms with 20,000 contacts). Reading the whole Contact table on every
 * keystroke cost over a second; this holds one entry per address instead, built once from
 * the table (suggestion-indexes.ts) and changed row by row as the table is.
 *
 * An entry joins what the table says of one address: the address row the mail tally keeps
 * (its name, compose rank, last sighting, `forgotten` when the person removed the
 * suggestion) and the live cards that hold the address (their names win, and a card keeps
 * a removed suggestion). It matches a typed prefix on the words of its names and the parts
 * of its address (`jo.smith+x@kite.example`: the whole address, `jo`, `smith`, `x`,
 * `kite`); every word typed must start one of them. Entries sit in buckets by the first
 * letter of each of their words, so one letter looks only at the entries it can match.
 */
import { isLikelyNonHumanAddress } from '../../shared/address-kind';
import type { Address } from '../../shared/api/mail';
import type { ContactList } from '../../shared/api/contact-lists';
import { contactDisplayName, type Contact } from '../../shared/contacts';
import type { SuggestedAddress } from '../../shared/worker-mail-api';
import type { StoredRow } from '../db/store';
import { compareSuggestions, type SuggestionCandidate } from './suggestion-order';

/** What the address rows say, by address. */
interface SeenAddress {
  readonly name: string;
  readonly rank: number;
  readonly lastAt: number;
  readonly forgotten: boolean;
}

interface Entry extends SuggestionCandidate {
  readonly words: readonly string[];
}

const CARD_PREFIX = 'card:';

/** Lowercased words of a name (whitespace and punctuation split them). */
const nameWords = (name: string): string[] => name.toLowerCase().split(/[\s,;()"'<>]+/).filter(Boolean);

/** The whole address, the words of its local part (split at . _ - +) and its domain's labels but the last. */
function addressWords(email: string): string[] {
  const at = email.lastIndexOf('@');
  const local = at >= 0 ? email.slice(0, at) : email;
  const labels = at >= 0 ? email.slice(at + 1).split('.').slice(0, -1) : [];
  return [email, ...local.split(/[._+-]+/), ...labels].filter(Boolean);
}

/**
 * Every typed word starts one of the entry's words. Plain loops, no closure per entry: the
 * first lookups run before the JIT has optimised anything, and with 20,000 entries in a
 * bucket two closures per entry made a first keystroke cost tens of milliseconds.
 */
function matchesAll(words: readonly string[], typed: readonly string[]): boolean {
  for (let i = 0; i < typed.length; i++) {
    const word = typed[i]!;
    let found = false;
    for (let j = 0; j < words.length && !found; j++) found = words[j]!.startsWith(word);
    if (!found) return false;
  }
  return true;
}

const cardName = (card: Contact) => `${card.firstName} ${card.lastName}`.trim() || contactDisplayName(card);

export class SuggestionIndex {
  private readonly seen = new Map<string, SeenAddress>();
  /** Live cards by id. */
  private readonly cards = new Map<string, Contact>();
  /** Ids of the live cards holding each address. */
  private readonly cardsByEmail = new Map<string, Set<string>>();
  private readonly entries = new Map<string, Entry>();
  /** Entries by the first character of each of their words. */
  private readonly buckets = new Map<string, Set<Entry>>();
  private lists: readonly ContactList[] = [];

  /** Addresses that can be suggested. */
  get size(): number {
    return this.entries.size;
  }

  /** A Contact row as stored now (a card `card:<id>` or an address row), or its key when it is gone. */
  put(row: StoredRow): void {
    if (row.id.startsWith(CARD_PREFIX)) {
      const card = row.card as Contact | undefined;
      this.setCard(row.id.slice(CARD_PREFIX.length), card && row.deleted !== 1 ? card : null);
      return;
    }
    const email = String(row.email ?? row.id).toLowerCase();
    this.seen.set(email, {
      name: String(row.name ?? ''),
      rank: Number(row.mailComposeRank ?? 0),
      lastAt: Number(row.last_seen_at ?? 0),
      forgotten: row.forgotten === 1,
    });
    this.refresh(email);
  }

  /** A Contact row was deleted. */
  remove(key: string): void {
    if (key.startsWith(CARD_PREFIX)) {
      this.setCard(key.slice(CARD_PREFIX.length), null);
      return;
    }
    const email = key.toLowerCase();
    this.seen.delete(email);
    this.refresh(email);
  }

  setLists(lists: readonly ContactList[]): void {
    this.lists = lists;
  }

  /** The best `limit` people for what was typed (lowercase, trimmed), best first. */
  people(needle: string, limit: number): SuggestionCandidate[] {
    const typed = needle.split(/\s+/).filter(Boolean);
    const bucket = typed[0] ? this.buckets.get(typed[0][0]!) : undefined;
    if (!bucket) return [];
    // The best `limit` so far, in order: most entries lose to the last at once.
    const best: Entry[] = [];
    for (const entry of bucket) {
      if (best.length === limit && compareSuggestions(entry, best[limit - 1]!) >= 0) continue;
      if (!matchesAll(entry.words, typed)) continue;
      let at = best.length;
      while (at > 0 && compareSuggestions(entry, best[at - 1]!) < 0) at--;
      best.splice(at, 0, entry);
      if (best.length > limit) best.pop();
    }
    return best.map(({ words: _words, ...candidate }) => candidate);
  }

  /** Lists with a word of their name starting with what was typed, each with its members' first addresses (cards without one left out; a list with no address none). */
  listsFor(needle: string): SuggestedAddress[] {
    return this.lists
      .filter((list) => nameWords(list.name).some((word) => word.startsWith(needle)))
      .flatMap((list) => {
        const members = list.memberIds.flatMap((id) => {
          const card = this.cards.get(id);
          const email = card?.emails[0];
          return card && email ? [{ name: cardName(card), email }] : [];
        });
        return members.length > 0 ? [{ name: list.name, email: `list:${list.id}`, members }] : [];
      });
  }

  private setCard(id: string, card: Contact | null): void {
    const old = this.cards.get(id);
    const touched = new Set<string>();
    for (const email of old?.emails ?? []) {
      const key = email.toLowerCase();
      touched.add(key);
      const holders = this.cardsByEmail.get(key);
      holders?.delete(id);
      if (holders?.size === 0) this.cardsByEmail.delete(key);
    }
    if (card) {
      this.cards.set(id, card);
      for (const email of card.emails) {
        const key = email.toLowerCase();
        touched.add(key);
        let holders = this.cardsByEmail.get(key);
        if (!holders) this.cardsByEmail.set(key, (holders = new Set()));
        holders.add(id);
      }
    } else this.cards.delete(id);
    for (const email of touched) this.refresh(email);
  }

  /** Builds the address's entry again from its row and cards (none: not suggested). */
  private refresh(email: string): void {
    const old = this.entries.get(email);
    if (old) this.file(old, false);
    const seen = this.seen.get(email);
    // The card of the smallest id names the address when several hold it (the table's order).
    const holders = [...(this.cardsByEmail.get(email) ?? [])].sort().map((id) => this.cards.get(id)!);
    if (holders.length === 0 && (!seen || seen.forgotten)) {
      this.entries.delete(email);
      return;
    }
    const names = [...holders.flatMap((card) => [card.firstName, card.lastName, card.company]), seen?.name ?? ''];
    const entry: Entry = {
      address: { name: holders[0] ? cardName(holders[0]) : (seen?.name ?? ''), email } satisfies Address,
      rank: seen?.rank ?? 0,
      lastAt: seen?.lastAt ?? 0,
      card: holders.length > 0,
      machine: isLikelyNonHumanAddress(email),
      words: [...new Set([...addressWords(email), ...names.flatMap(nameWords)])],
    };
    this.entries.set(email, entry);
    this.file(entry, true);
  }

  private file(entry: Entry, add: boolean): void {
    for (const first of new Set(entry.words.map((word) => word[0]!))) {
      let bucket = this.buckets.get(first);
      if (add) {
        if (!bucket) this.buckets.set(first, (bucket = new Set()));
        bucket.add(entry);
      } else {
        bucket?.delete(entry);
        if (bucket?.size === 0) this.buckets.delete(first);
      }
    }
  }
}
