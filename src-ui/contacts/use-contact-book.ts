/**
 * One account's address book for the Contacts screen, live: the engine pushes the whole book
 * whenever it changes (here, in another tab, on another device). Each card's search text and
 * display name are worked out once per push, so a keystroke in the search only filters.
 */
import { useEffect, useMemo, useState } from 'react';
import { contactDisplayName, contactSearchText, duplicateGroups } from '../../shared/contacts';
import type { ContactBook, ContactCard } from '../../shared/worker-contacts-api';
import { useMailActions } from '../state/actions-context';

export interface ListedCard {
  readonly card: ContactCard;
  readonly name: string;
  readonly text: string;
}

export interface ContactBookView {
  readonly loading: boolean;
  readonly cards: readonly ListedCard[];
  /** Groups of cards sharing an address by the spec's equivalence (merge candidates). */
  readonly duplicates: readonly (readonly ContactCard[])[];
  readonly refused: ContactBook['refused'];
  readonly lists: ContactBook['lists'];
}

export function useContactBook(accountId: string | null): ContactBookView {
  const actions = useMailActions();
  const [book, setBook] = useState<ContactBook | null>(null);
  useEffect(() => {
    setBook(null);
    if (!accountId) return;
    return actions.watchContacts(accountId, setBook);
  }, [accountId, actions]);
  return useMemo(() => {
    const cards = (book?.cards ?? []).map((card) => ({ card, name: contactDisplayName(card), text: contactSearchText(card) }));
    return { loading: book === null, cards, duplicates: duplicateGroups(book?.cards ?? []), refused: book?.refused ?? null, lists: book?.lists ?? [] };
  }, [book]);
}

/** The cards whose names, company, addresses or phones contain every word of the query. */
export function filterCards(cards: readonly ListedCard[], query: string): readonly ListedCard[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return cards;
  return cards.filter((listed) => words.every((word) => listed.text.includes(word)));
}
