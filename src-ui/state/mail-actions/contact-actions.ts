/**
 * The address book (the Contacts screen, "Add to contacts" on a message): each one engine
 * call; a delete says so in a toast with Undo (the engine's restore); refusals become the
 * catalogue's TernError.
 */
import { sameAddress } from '../../../shared/address-equivalence';
import type { Address } from '../../../shared/api/mail';
import { contactDisplayName, type ContactInput } from '../../../shared/contacts';
import { TernError } from '../../../shared/errors';
import { errorPhrase } from '../../../shared/strings';
import type { ThreadRow } from '../../../shared/worker-mail-views';
import type { ContactBook, ContactCard, ContactExportFile, ContactList, ContactImport, ContactImportPreview, ContactsService } from '../../../shared/worker-contacts-api';
import type { WorkerBridge } from '../engine-feeds';
import type { UiEngine } from '../engine-port';
import { asTernError as call, engineService } from './engine-call';

export interface ContactActions {
  /** Calls `onChange` with the account's book now and on every change; returns the stop. */
  watchContacts(accountId: string, onChange: (book: ContactBook) => void): () => void;
  /** Creates (no id) or edits a card; throws InvalidRequestData (detail names the field) or TotalContactsLimitExceed. */
  saveContact(params: { accountId: string; id?: string; card: Partial<ContactInput> }): Promise<ContactCard>;
  /** Deletes cards and offers Undo in a toast. */
  deleteContacts(params: { accountId: string; ids: readonly string[]; name: string }): Promise<void>;
  /**
   * "Add to contacts" on a message: the sender as a new card (names split at the last space),
   * said in a toast — or, when a card holds the address already, that one; the toast offers
   * to open the card (`open`: its recent mail is there).
   */
  addSenderToContacts(params: { accountId: string; sender: Address; open?: (cardId: string) => void }): Promise<void>;
  /** The newest conversations of this device's copy with an address (from, to or copied), newest first. */
  recentMailWith(params: { accountId: string; email: string; limit: number }): Promise<readonly ThreadRow[]>;
  /** Takes an address out of the composer's suggestions (best effort: a failure only leaves it suggested). */
  forgetSuggestion(params: { accountIds: readonly string[]; email: string }): void;
  /** Folds the others into the first card. */
  mergeContacts(params: { accountId: string; ids: readonly string[] }): Promise<ContactCard>;
  /** What a picked file holds under a mapping (nothing sent); throws the catalogue's refusal of the file. */
  previewContactImport(params: Parameters<ContactsService['previewImport']>[0]): Promise<ContactImportPreview>;
  /** Imports the file through the gateway's job, `onProgress` as it goes; resolves with its end. */
  importContacts(params: Parameters<ContactsService['importFile']>[0], onProgress: (status: ContactImport) => void): Promise<ContactImport>;
  /** Creates or replaces a contact list (online; FeatureNotInPlan on a plan without contact groups). */
  saveContactList(params: Parameters<ContactsService['saveList']>[0]): Promise<ContactList>;
  /** Deletes a contact list. */
  removeContactList(params: Parameters<ContactsService['removeList']>[0]): Promise<void>;
  /** The book as a file (this device's copy). */
  exportContacts(params: Parameters<ContactsService['exportFile']>[0]): Promise<ContactExportFile>;
}

export function createContactActions({ engine, bridge }: { engine: UiEngine; bridge: Pick<WorkerBridge, 'toast'> }): ContactActions {
  const contacts = () => engineService(engine, 'contacts');
  return {
    watchContacts(accountId, onChange) {
      let stopped = false;
      const subscription = call(() => contacts().watch({ accountId }, (book) => !stopped && onChange(book)));
      subscription.catch((error: unknown) => bridge.toast({ tone: 'error', message: errorPhrase(TernError.from(error)) }));
      return () => {
        stopped = true;
        void subscription.then(({ subscriptionId }) => contacts().unwatch({ subscriptionId })).catch(() => undefined);
      };
    },
    saveContact: (params) => call(() => contacts().save(params)),
    async deleteContacts({ accountId, ids, name }) {
      await call(() => contacts().remove({ accountId, ids }));
      bridge.toast({
        tone: 'info',
        message: { id: 'contacts.deleted', values: { name } },
        action: {
          label: { id: 'app.undo' },
          run: () => void call(() => contacts().restore({ accountId, ids })).catch((error: unknown) => bridge.toast({ tone: 'error', message: errorPhrase(TernError.from(error)) })),
        },
      });
    },
    mergeContacts: (params) => call(() => contacts().merge(params)),
    previewContactImport: (params) => call(() => contacts().previewImport(params)),
    importContacts: (params, onProgress) => call(() => contacts().importFile(params, onProgress)),
    exportContacts: (params) => call(() => contacts().exportFile(params)),
    saveContactList: (params) => call(() => contacts().saveList(params)),
    removeContactList: (params) => call(() => contacts().removeList(params)),
    forgetSuggestion: (params) => void call(() => contacts().forgetSuggestion(params)).catch(() => undefined),
    async addSenderToContacts({ accountId, sender, open }) {
      const name = sender.name.trim();
      const space = name.lastIndexOf(' ');
      const card = { firstName: space > 0 ? name.slice(0, space) : name, lastName: space > 0 ? name.slice(space + 1) : '', emails: [sender.email] };
      const openAction = (cardId: string) => (open ? { action: { label: { id: 'contacts.openContact' as const }, run: () => open(cardId) } } : {});
      try {
        // One card per person: an address already in the book (by the spec's equivalence) is not added twice.
        const book = await call(() => contacts().list({ accountId }));
        const known = book.cards.find((existing) => existing.emails.some((email) => sameAddress(email, sender.email)));
        if (known) {
          bridge.toast({ tone: 'info', message: { id: 'contacts.alreadyThere', values: { name: contactDisplayName(known) } }, ...openAction(known.id) });
          return;
        }
        const saved = await call(() => contacts().save({ accountId, card }));
        bridge.toast({ tone: 'info', message: { id: 'contacts.added', values: { name: contactDisplayName(saved) } }, ...openAction(saved.id) });
      } catch (error) {
        bridge.toast({ tone: 'error', message: errorPhrase(TernError.from(error)) });
      }
    },
    async recentMailWith({ accountId, email, limit }) {
      // The cached search of the address as a phrase: it is on the From, To or Cc line. One snapshot, not a live list.
      const query = `"${email.replace(/"/g, '')}"`;
      const snapshot = await call(() => engine.mail.watchThreadList({ scope: { kind: 'search', accountIds: [accountId], query }, window: { offset: 0, limit } }, () => {}));
      void engine.mail.unwatch({ subscriptionId: snapshot.subscriptionId }).catch(() => undefined);
      return snapshot.rows;
    },
  };
}
