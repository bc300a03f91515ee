import type { ContactChanges } from '../../shared/api/contacts';
import { CONTACT_LIMITS, mergeCards, type Contact, type ContactInput } from '../../shared/contacts';
import { TernError } from '../../shared/errors';
import type { TxnAnnouncer } from '../plans/plan-service';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { ContactStore, readCursor, writeCursor, type ContactRow } from './contact-store';

const toContact = ({ changedTxn: _txn, deleted: _deleted, ...card }: ContactRow): Contact => card;
const toInput = (card: Contact): ContactInput => ({ firstName: card.firstName, lastName: card.lastName, emails: card.emails, phones: card.phones, company: card.company, notes: card.notes });

/**
 * The address book of each account (issue 18). Every change is one transaction that
 * appends a 'contacts' entry to the account's transaction log and stamps the cards it
 * touched with that entry's id, so the cards' changes form a stream a device reads from its
 * own cursor (`changes`), and the push hub wakes every other device to read it.
 */
export class ContactService {
  private readonly cards: ContactStore;

  constructor(
    private readonly deps: {
      store: SqlStore;
      txlog: Pick<TransactionLog, 'append'>;
      push: TxnAnnouncer;
      now?: () => number;
      /** Live cards per account (CONTACT_LIMITS.contacts; tests lower it). */
      maxContacts?: number;
    },
  ) {
    this.cards = new ContactStore(deps.store);
  }

  /** Cards changed after `since` (live ones whole, deleted ones by id), oldest change first. */
  async changes(accountId: number, since: string, limit: number): Promise<ContactChanges> {
    const rows = await this.cards.changes(accountId, readCursor(since), limit + 1);
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    const last = page.at(-1);
    return {
      contacts: page.filter((row) => !row.deleted).map(toContact),
      deleted: page.filter((row) => row.deleted).map((row) => row.id),
      cursor: last ? writeCursor({ txn: last.changedTxn, id: last.id }) : since,
      hasMore,
    };
  }

  /** One live card; InvalidOperation 404 when there is none. */
  async get(accountId: number, id: string): Promise<Contact> {
    const row = await this.cards.get(accountId, id);
    if (!row || row.deleted) throw new TernError('InvalidOperation', { detail: { contact: id } });
    return toContact(row);
  }

  /**
   * Creates the card under the device's id, or replaces the fields of the stored one (the
   * newest edit wins: a card is edited by one person). A new card past the limit is
   * TotalContactsLimitExceed, and nothing is written.
   */
  async put(accountId: number, id: string, card: ContactInput): Promise<Contact> {
    await this.change(accountId, async (at) => {
      const old = await this.cards.get(accountId, id);
      if (!old || old.deleted) await this.assertRoom(accountId, 1);
      await this.cards.put(accountId, id, card, at);
    });
    return this.get(accountId, id);
  }

  /** Deletes a card (a tombstone every device learns of); an unknown or deleted one is fine. */
  async delete(accountId: number, id: string): Promise<void> {
    await this.change(accountId, (at) => this.cards.setDeleted(accountId, [id], true, at), { skipIfNone: true });
  }

  /** The undo of a delete: the cards come back as they were. */
  async restore(accountId: number, ids: readonly string[]): Promise<number> {
    let restored = 0;
    await this.change(
      accountId,
      async (at) => {
        const gone = (await this.cards.getMany(accountId, ids)).filter((row) => row.deleted);
        await this.assertRoom(accountId, gone.length);
        restored = await this.cards.setDeleted(accountId, gone.map((row) => row.id), false, at);
        return restored;
      },
      { skipIfNone: true },
    );
    return restored;
  }

  /**
   * Folds the other cards into the first (mergeCards) and deletes them, in one change.
   * Every card must be live: InvalidOperation 404 names the ones that are not.
   */
  async merge(accountId: number, ids: readonly string[]): Promise<Contact> {
    const unique = [...new Set(ids)];
    if (unique.length < 2) throw new TernError('InvalidRequestData', { detail: { ids: 'two different cards' } });
    await this.change(accountId, async (at) => {
      const rows = new Map((await this.cards.getMany(accountId, unique)).filter((row) => !row.deleted).map((row) => [row.id, row]));
      const missing = unique.filter((id) => !rows.has(id));
      if (missing.length > 0) throw new TernError('InvalidOperation', { detail: { contacts: missing } });
      const merged = mergeCards(unique.map((id) => toInput(rows.get(id)!)));
      await this.cards.put(accountId, unique[0]!, merged, at);
      await this.cards.setDeleted(accountId, unique.slice(1), true, at);
    });
    return this.get(accountId, unique[0]!);
  }

  /** The txlog id of the account's latest card change (the delta's 'contacts' upsert carries it). */
  revision(accountId: number): Promise<number> {
    return this.cards.revision(accountId);
  }

  /** Room for `adding` more live cards, else TotalContactsLimitExceed (detail: the limit and how many there are). */
  async assertRoom(accountId: number, adding: number): Promise<void> {
    if (adding === 0) return;
    const limit = this.deps.maxContacts ?? CONTACT_LIMITS.contacts;
    const count = await this.cards.liveCount(accountId);
    if (count + adding > limit) throw new TernError('TotalContactsLimitExceed', { detail: { limit, count } });
  }

  /** The store, for the import (same transaction rules). */
  get rows(): ContactStore {
    return this.cards;
  }

  /**
   * Runs one change in a transaction: the log entry first (its bump of the account row takes
   * that row's lock on PostgreSQL, so two changes of one account take turns), then `body`
   * with that entry's id to stamp the cards. With `skipIfNone`, a body that changed no card
   * (returns 0) rolls the entry back, so a repeated delete wakes nobody.
   */
  async change(accountId: number, body: (at: { now: number; txn: number }) => Promise<unknown>, options: { skipIfNone?: boolean } = {}): Promise<void> {
    const now = (this.deps.now ?? Date.now)();
    const NOTHING = Symbol('nothing');
    const latest = await this.deps.store
      .transaction(async () => {
        const txn = await this.deps.txlog.append(accountId, [{ object: 'contacts', objectId: accountId }]);
        const changed = await body({ now, txn });
        if (options.skipIfNone && changed === 0) throw NOTHING;
        return txn;
      })
      .catch((error: unknown) => {
        if (error === NOTHING) return null;
        throw error;
      });
    if (latest !== null) this.deps.push.announce(accountId, latest);
  }
}
