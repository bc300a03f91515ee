/**
 * Contact lists (issue 18 point 3; routes and errors in shared/api/contact-lists.ts): named
 * lists of the book's cards. Changes go through ContactService.change, so a list change is a
 * change of the book (one txlog entry, announced) and its rows are stamped with that entry's
 * id: the same changes stream and cursor scheme as the cards. The plan gate is the routes'.
 */
import type { Address } from '../../shared/api/mail';
import { CONTACT_LIST_LIMITS, type ContactList, type ContactListChanges, type ContactListInput } from '../../shared/api/contact-lists';
import { contactDisplayName } from '../../shared/contacts';
import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';
import type { ContactService } from './contact-service';
import { readCursor, writeCursor } from './contact-store';

type SqlRow = { id: string; name: string; memberIdsJson: string; createdAt: number; updatedAt: number; changedTxn: number; deleted: number };

const COLUMNS = `id, name, member_ids_json AS "memberIdsJson", created_at AS "createdAt", updated_at AS "updatedAt", changed_txn AS "changedTxn", deleted`;
const PUT = `INSERT INTO contact_lists (account_id, id, name, member_ids_json, created_at, updated_at, changed_txn, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, 0)
  ON CONFLICT (account_id, id) DO UPDATE SET name = excluded.name, member_ids_json = excluded.member_ids_json, updated_at = excluded.updated_at,
    changed_txn = excluded.changed_txn, deleted = 0`;

const toList = (row: SqlRow): ContactList => ({
  id: row.id,
  name: row.name,
  memberIds: JSON.parse(row.memberIdsJson) as string[],
  createdAt: Number(row.createdAt),
  updatedAt: Number(row.updatedAt),
});

export class ContactListService {
  constructor(private readonly deps: { store: SqlStore; contacts: ContactService }) {}

  /** Lists changed after `since` (live ones whole, deleted ones by id), oldest change first. */
  async changes(accountId: number, since: string, limit: number): Promise<ContactListChanges> {
    const after = readCursor(since);
    const rows = await this.deps.store.all<SqlRow>(
      `SELECT ${COLUMNS} FROM contact_lists WHERE account_id = ? AND (changed_txn > ? OR (changed_txn = ? AND id > ?)) ORDER BY changed_txn, id LIMIT ?`,
      [accountId, after.txn, after.txn, after.id, limit + 1],
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      lists: page.filter((row) => row.deleted !== 1).map(toList),
      deleted: page.filter((row) => row.deleted === 1).map((row) => row.id),
      cursor: last ? writeCursor({ txn: Number(last.changedTxn), id: last.id }) : since,
      hasMore: rows.length > limit,
    };
  }

  async get(accountId: number, id: string): Promise<ContactList> {
    const row = await this.deps.store.get<SqlRow>(`SELECT ${COLUMNS} FROM contact_lists WHERE account_id = ? AND id = ? AND deleted = 0`, [accountId, id]);
    if (!row) throw new TernError('InvalidOperation', { detail: { list: id } });
    return toList(row);
  }

  /** Creates or replaces a list; every member must be a live card (InvalidRequestData names the others). */
  async put(accountId: number, id: string, input: ContactListInput): Promise<ContactList> {
    await this.deps.contacts.change(accountId, async (at) => {
      const live = new Set((await this.deps.contacts.rows.getMany(accountId, input.memberIds)).filter((row) => !row.deleted).map((row) => row.id));
      const unknown = input.memberIds.filter((memberId) => !live.has(memberId));
      if (unknown.length > 0) throw new TernError('InvalidRequestData', { detail: [{ path: 'memberIds', message: `Not in the address book: ${unknown.join(', ')}` }] });
      const existing = await this.deps.store.get<{ deleted: number }>('SELECT deleted FROM contact_lists WHERE account_id = ? AND id = ?', [accountId, id]);
      if (!existing || existing.deleted === 1) {
        const count = await this.deps.store.get<{ count: number }>('SELECT COUNT(*) AS count FROM contact_lists WHERE account_id = ? AND deleted = 0', [accountId]);
        if (Number(count?.count ?? 0) >= CONTACT_LIST_LIMITS.lists) throw new TernError('InvalidOperation', { detail: { limit: CONTACT_LIST_LIMITS.lists } });
      }
      await this.deps.store.run(PUT, [accountId, id, input.name, JSON.stringify(input.memberIds), at.now, at.now, at.txn]);
    });
    return this.get(accountId, id);
  }

  /** Deletes a list (a tombstone); an unknown or deleted one is fine. */
  async delete(accountId: number, id: string): Promise<void> {
    await this.deps.contacts.change(
      accountId,
      async (at) => (await this.deps.store.run('UPDATE contact_lists SET deleted = 1, updated_at = ?, changed_txn = ? WHERE account_id = ? AND id = ? AND deleted = 0', [at.now, at.txn, accountId, id])).changes,
      { skipIfNone: true },
    );
  }

  /** Who a message to the list goes to: each member card's first address, in the list's order (cards without one left out). */
  async recipients(accountId: number, id: string): Promise<Address[]> {
    const list = await this.get(accountId, id);
    const cards = new Map((await this.deps.contacts.rows.getMany(accountId, list.memberIds)).filter((row) => !row.deleted).map((row) => [row.id, row]));
    return list.memberIds.flatMap((memberId) => {
      const card = cards.get(memberId);
      const email = card?.emails[0];
      return card && email ? [{ name: `${card.firstName} ${card.lastName}`.trim() || contactDisplayName(card), email }] : [];
    });
  }

  /** The txlog id of the account's latest list change (0: none). */
  async revision(accountId: number): Promise<number> {
    const row = await this.deps.store.get<{ revision: number | null }>('SELECT MAX(changed_txn) AS revision FROM contact_lists WHERE account_id = ?', [accountId]);
    return Number(row?.revision ?? 0);
  }
}
