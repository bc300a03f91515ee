/**
 * The engine's address book as the tabs see it (issue 18): cards cached in each account's
 * database, synced from the gateway's changes stream, changed at once here and queued for the
 * gateway like mail commands, so an edit made offline reaches it later.
 */
import type { Contact, ContactInput } from './contacts';

/** A card as the engine holds it: the gateway's, or this device's edit not confirmed yet. */
export interface ContactCard extends Contact {
  /** Changed on this device and not confirmed by the gateway yet (offline, or in flight). */
  readonly unsynced: boolean;
}

/** What the engine says about one account's book now. */
export interface ContactBook {
  readonly accountId: string;
  /** Every card, by display name. */
  readonly cards: readonly ContactCard[];
  /** The last change the gateway refused (e.g. TotalContactsLimitExceed), taken back here; null when none. */
  readonly refused: { readonly name: string; readonly message: string } | null;
}

export interface ContactsService {
  /** The account's cards (AccountNotFound if unknown). */
  list(params: { readonly accountId: string }): Promise<ContactBook>;
  /**
   * Creates a card (no id) or replaces one's fields: at once here and in every tab, then on
   * the gateway. Rejects with InvalidRequestData (the field named) and changes nothing for a bad
   * card; TotalContactsLimitExceed when this device already holds the limit. Resolves with the card.
   */
  save(params: { readonly accountId: string; readonly id?: string; readonly card: Partial<ContactInput> }): Promise<ContactCard>;
  /** Deletes cards (undo: `restore` with the same ids). */
  remove(params: { readonly accountId: string; readonly ids: readonly string[] }): Promise<void>;
  /** Brings deleted cards back as they were (the undo of `remove`). */
  restore(params: { readonly accountId: string; readonly ids: readonly string[] }): Promise<void>;
  /** Folds the other cards into the first (shared/contacts.ts mergeCards); resolves with it. */
  merge(params: { readonly accountId: string; readonly ids: readonly string[] }): Promise<ContactCard>;
  /** Calls `onChange` with the account's book now and whenever it changes (any tab, any device). */
  watch(params: { readonly accountId: string }, onChange: (book: ContactBook) => void): Promise<{ readonly subscriptionId: string }>;
  unwatch(params: { readonly subscriptionId: string }): Promise<void>;
}
