import type { Contact, ContactInput } from '../../shared/contacts';
import type { SqlStore } from '../store/sql';

/** Where a device is in the account's stream of card changes: after (txn, id). */
export interface ChangesCursor {
  readonly txn: number;
  readonly id: string;
}

/** '' (or anything unreadable: start over) is the beginning. */
export function readCursor(text: string): ChangesCursor {
  const match = /^(\d+)\.([A-Za-z0-9_-]*)$/.exec(text);
  return match ? { txn: Number(match[1]), id: match[2]! } : { txn: 0, id: '' };
}

export const writeCursor = (cursor: ChangesCursor): string => (cursor.txn === 0 && cursor.id === '' ? '' : `${cursor.txn}.${cursor.id}`);

/** A stored card with its sync columns. */
export interface ContactRow extends Contact {
  readonly changedTxn: number;
  readonly deleted: boolean;
}

type SqlRow = {
  id: string;
  firstName: string;
  lastName: string;
  emailsJson: string;
  phonesJson: string;
  company: string;
  notes: string;
  createdAt: number;
  updatedAt: number;
  changedTxn: number;
  deleted: number;
};

const COLUMNS = `id, first_name AS "firstName", last_name AS "lastName", emails_json AS "emailsJson", phones_json AS "phonesJson",
  company, notes, created_at AS "createdAt", updated_at AS "updatedAt", changed_txn AS "changedTxn", deleted`;

const CHANGES = `SELECT ${COLUMNS} FROM contacts WHERE account_id = ? AND (changed_txn > ? OR (changed_txn = ? AND id > ?))
  ORDER BY changed_txn, id LIMIT ?`;
const PUT = `INSERT INTO contacts (account_id, id, first_name, last_name, emails_json, phones_json, company, notes, created_at, updated_at, changed_txn, deleted)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
  ON CONFLICT (account_id, id) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name, emails_json = excluded.emails_json,
    phones_json = excluded.phones_json, company = excluded.company, notes = excluded.notes, updated_at = excluded.updated_at,
    changed_txn = excluded.changed_txn, deleted = 0`;

/** A damaged list reads as empty rather than failing every device's sync. */
function strings(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

const toRow = (row: SqlRow): ContactRow => ({
  id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  emails: strings(row.emailsJson),
  phones: strings(row.phonesJson),
  company: row.company,
  notes: row.notes,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  changedTxn: row.changedTxn,
  deleted: row.deleted === 1,
});

/** The SQL of address book cards (table contacts; deleted cards stay as tombstones). */
export class ContactStore {
  constructor(private readonly store: SqlStore) {}

  /** Cards (live and deleted) changed after the cursor, oldest change first. */
  async changes(accountId: number, after: ChangesCursor, limit: number): Promise<ContactRow[]> {
    const rows = await this.store.all<SqlRow>(CHANGES, [accountId, after.txn, after.txn, after.id, limit]);
    return rows.map(toRow);
  }

  async get(accountId: number, id: string): Promise<ContactRow | undefined> {
    const row = await this.store.get<SqlRow>(`SELECT ${COLUMNS} FROM contacts WHERE account_id = ? AND id = ?`, [accountId, id]);
    return row && toRow(row);
  }

  /** Several cards by id, live or not, in no particular order. */
  async getMany(accountId: number, ids: readonly string[]): Promise<ContactRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.store.all<SqlRow>(`SELECT ${COLUMNS} FROM contacts WHERE account_id = ? AND id IN (${ids.map(() => '?').join(', ')})`, [accountId, ...ids]);
    return rows.map(toRow);
  }

  /** Cards not deleted. */
  async liveCount(accountId: number): Promise<number> {
    const row = await this.store.get<{ count: number }>('SELECT COUNT(*) AS count FROM contacts WHERE account_id = ? AND deleted = 0', [accountId]);
    return Number(row?.count ?? 0);
  }

  /** Every live card (an import's duplicate check, the export). */
  async liveCards(accountId: number): Promise<Contact[]> {
    const rows = await this.store.all<SqlRow>(`SELECT ${COLUMNS} FROM contacts WHERE account_id = ? AND deleted = 0 ORDER BY id`, [accountId]);
    return rows.map((row) => {
      const { changedTxn: _txn, deleted: _deleted, ...card } = toRow(row);
      return card;
    });
  }

  /** Creates the card, or replaces the fields of the stored one (and undeletes it). */
  async put(accountId: number, id: string, card: ContactInput, at: { now: number; txn: number }): Promise<void> {
    await this.store.run(PUT, [accountId, id, card.firstName, card.lastName, JSON.stringify(card.emails), JSON.stringify(card.phones), card.company, card.notes, at.now, at.now, at.txn]);
  }

  /** Marks cards deleted (or live again); returns how many changed. */
  async setDeleted(accountId: number, ids: readonly string[], deleted: boolean, at: { now: number; txn: number }): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.store.run(
      `UPDATE contacts SET deleted = ?, updated_at = ?, changed_txn = ? WHERE account_id = ? AND deleted = ? AND id IN (${ids.map(() => '?').join(', ')})`,
      [deleted ? 1 : 0, at.now, at.txn, accountId, deleted ? 0 : 1, ...ids],
    );
    return result.changes;
  }

  /** The txlog id of the account's latest card change (0: none yet). */
  async revision(accountId: number): Promise<number> {
    const row = await this.store.get<{ revision: number | null }>('SELECT MAX(changed_txn) AS revision FROM contacts WHERE account_id = ?', [accountId]);
    return Number(row?.revision ?? 0);
  }
}
