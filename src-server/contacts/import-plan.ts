/**
 * What an import does to the book (issue 18 point 4), decided before anything is written: each
 * card of the file becomes a new card, or is merged into the card already holding one of its
 * addresses (by the spec's equivalence) — or, for a card without an address, the card of the
 * same name ("two contacts are compared on email and name", spec §3). A merge that adds nothing
 * is no write at all, so importing the same file twice leaves the book as the first import did.
 * Cards of the file that share an address are merged with each other the same way.
 */
import { addressKey } from '../../shared/address-equivalence';
import { contactDisplayName, mergeCards, type Contact, type ContactInput } from '../../shared/contacts';

export interface ImportWrite {
  readonly id: string;
  readonly card: ContactInput;
}

export interface ImportPlan {
  readonly creates: readonly ImportWrite[];
  readonly updates: readonly ImportWrite[];
  /** Cards of the file already in the book as they are. */
  readonly unchanged: number;
}

interface Target {
  readonly id: string;
  card: ContactInput;
  /** The card as the book holds it; null for a card this import creates. */
  readonly before: ContactInput | null;
}

const inputOf = (card: ContactInput): ContactInput => ({ firstName: card.firstName, lastName: card.lastName, emails: card.emails, phones: card.phones, company: card.company, notes: card.notes });
const sameCard = (a: ContactInput, b: ContactInput) => JSON.stringify(inputOf(a)) === JSON.stringify(inputOf(b));
const nameKey = (card: ContactInput) => contactDisplayName(card).trim().toLowerCase();

/** `newId(i)` names the card the file's i-th card creates: the same for the same import, so a job run again writes the same cards. */
export function planImport(book: readonly Contact[], incoming: readonly ContactInput[], newId: (index: number) => string): ImportPlan {
  const byAddress = new Map<string, Target>();
  const byName = new Map<string, Target>();
  const targets: Target[] = [];
  const index = (target: Target) => {
    for (const email of target.card.emails) if (!byAddress.has(addressKey(email))) byAddress.set(addressKey(email), target);
    if (target.card.emails.length === 0 && !byName.has(nameKey(target.card))) byName.set(nameKey(target.card), target);
  };
  for (const card of book) {
    const target: Target = { id: card.id, card: inputOf(card), before: inputOf(card) };
    targets.push(target);
    index(target);
  }
  let unchanged = 0;
  incoming.forEach((card, i) => {
    const match = card.emails.length > 0 ? card.emails.map((email) => byAddress.get(addressKey(email))).find(Boolean) : byName.get(nameKey(card));
    if (!match) {
      const target: Target = { id: newId(i), card: inputOf(card), before: null };
      targets.push(target);
      index(target);
      return;
    }
    const merged = mergeCards([match.card, card]);
    if (sameCard(merged, match.card)) {
      if (match.before !== null) unchanged++;
      return;
    }
    match.card = merged;
    index(match);
  });
  return {
    creates: targets.filter((target) => target.before === null).map(({ id, card }) => ({ id, card })),
    updates: targets.filter((target) => target.before !== null && !sameCard(target.before, target.card)).map(({ id, card }) => ({ id, card })),
    unchanged,
  };
}
