/**
 * The engine's address book as the tabs see it (issue 18): cards cached in each account's
 * database, synced from the gateway's changes stream, changed at once here and queued for the
 * gateway like mail commands, so an edit made offline reaches it later.
 */
import type { ContactExportFormat, ContactImport } from './api/contact-imports';
import type { ContactList } from './api/contact-lists';
import type { CsvField } from './contact-files/csv-columns';
import type { ContactFileRead, InvalidRow } from './contact-files/read-contact-file';
import type { Contact, ContactInput } from './contacts';

export type { ContactExportFormat, ContactImport, ContactList, CsvField, InvalidRow };

/**
 * What a picked file holds, read on this device before anything is sent (the preview the
 * person confirms): the reader's answer (shared/contact-files) without the cards themselves.
 */
export interface ContactImportPreview extends Pick<ContactFileRead, 'format' | 'encoding' | 'headers' | 'mapping' | 'sample'> {
  /** Cards that will be imported. */
  readonly valid: number;
  /** Rows that are not valid cards (the first 50), and how many there are. */
  readonly invalid: readonly InvalidRow[];
  readonly invalidCount: number;
}

/** A file to import, as picked. */
export interface ContactImportFile {
  readonly fileName: string;
  readonly bytes: ArrayBuffer;
}

/** An exported book, ready to be saved by the tab. */
export interface ContactExportFile {
  readonly fileName: string;
  readonly mimeType: string;
  readonly text: string;
}

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
  /** The contact lists (the spec's contact groups), by name; [] on a plan without them. */
  readonly lists: readonly ContactList[];
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
  /**
   * Takes an address out of the composer's suggestions (it stays out until the person writes
   * to it again); an address a card holds is still suggested — delete the card for that.
   */
  forgetSuggestion(params: { readonly accountIds: readonly string[]; readonly email: string }): Promise<void>;
  /**
   * Reads a picked file with the column mapping asked for (default: the guess from its header)
   * and says what it holds; nothing is sent. Rejects with the catalogue's error for a file that
   * cannot be imported (InvalidCsvUpload with detail.reason, CsvImportContactsLimitExceed).
   */
  previewImport(params: { readonly file: ContactImportFile; readonly mapping?: readonly CsvField[] }): Promise<ContactImportPreview>;
  /**
   * Sends the file to the gateway's import job, calls `onProgress` as it writes, and resolves
   * with the import at its end (done, or failed with its error); the new cards then arrive
   * through the book's sync. Rejects with the request's refusal (InvalidCsvUpload,
   * CsvImportContactsLimitExceed, TotalContactsLimitExceed, PreviousImportRequestRunning).
   */
  importFile(
    params: { readonly accountId: string; readonly file: ContactImportFile; readonly mapping?: readonly CsvField[]; readonly skipInvalid: boolean },
    onProgress: (status: ContactImport) => void,
  ): Promise<ContactImport>;
  /** The account's cards as a CSV or vCard file, from this device's copy (works offline). */
  exportFile(params: { readonly accountId: string; readonly format: ContactExportFormat }): Promise<ContactExportFile>;
  /**
   * Creates (no id) or replaces a contact list, on the gateway at once (lists need a connection):
   * FeatureNotInPlan on a plan without contact groups, InvalidRequestData for a member not in the book.
   */
  saveList(params: { readonly accountId: string; readonly id?: string; readonly name: string; readonly memberIds: readonly string[] }): Promise<ContactList>;
  /** Deletes a contact list (its cards stay). */
  removeList(params: { readonly accountId: string; readonly id: string }): Promise<void>;
  /** Calls `onChange` with the account's book now and whenever it changes (any tab, any device). */
  watch(params: { readonly accountId: string }, onChange: (book: ContactBook) => void): Promise<{ readonly subscriptionId: string }>;
  unwatch(params: { readonly subscriptionId: string }): Promise<void>;
}
