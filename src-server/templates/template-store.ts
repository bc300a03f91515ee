import type { Template, TemplateInput } from '../../shared/templates';
import type { ChangesCursor } from '../contacts/contact-store';
import type { SqlStore } from '../store/sql';

/** A stored template with its sync columns. */
export interface TemplateRow extends Template {
  readonly changedTxn: number;
  readonly deleted: boolean;
}

type SqlRow = Omit<TemplateRow, 'deleted'> & { deleted: number };

const COLUMNS = `id, name, subject, body_html AS "bodyHtml", created_at AS "createdAt", updated_at AS "updatedAt", changed_txn AS "changedTxn", deleted`;

const CHANGES = `SELECT ${COLUMNS} FROM email_templates WHERE account_id = ? AND (changed_txn > ? OR (changed_txn = ? AND id > ?))
  ORDER BY changed_txn, id LIMIT ?`;
const PUT = `INSERT INTO email_templates (account_id, id, name, subject, body_html, created_at, updated_at, changed_txn, deleted)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
  ON CONFLICT (account_id, id) DO UPDATE SET name = excluded.name, subject = excluded.subject, body_html = excluded.body_html,
    updated_at = excluded.updated_at, changed_txn = excluded.changed_txn, deleted = 0`;

const toRow = (row: SqlRow): TemplateRow => ({
  id: row.id,
  name: row.name,
  subject: row.subject,
  bodyHtml: row.bodyHtml,
  createdAt: Number(row.createdAt),
  updatedAt: Number(row.updatedAt),
  changedTxn: Number(row.changedTxn),
  deleted: Number(row.deleted) === 1,
});

/** The SQL of templates (table email_templates; deleted ones stay as tombstones). */
export class TemplateStore {
  constructor(private readonly store: SqlStore) {}

  /** Templates (live and deleted) changed after the cursor, oldest change first. */
  async changes(accountId: number, after: ChangesCursor, limit: number): Promise<TemplateRow[]> {
    return (await this.store.all<SqlRow>(CHANGES, [accountId, after.txn, after.txn, after.id, limit])).map(toRow);
  }

  async get(accountId: number, id: string): Promise<TemplateRow | undefined> {
    const row = await this.store.get<SqlRow>(`SELECT ${COLUMNS} FROM email_templates WHERE account_id = ? AND id = ?`, [accountId, id]);
    return row && toRow(row);
  }

  async liveCount(accountId: number): Promise<number> {
    const row = await this.store.get<{ count: number }>('SELECT COUNT(*) AS count FROM email_templates WHERE account_id = ? AND deleted = 0', [accountId]);
    return Number(row?.count ?? 0);
  }

  /** Creates the template, or replaces the stored one's fields (and undeletes it). */
  async put(accountId: number, id: string, template: TemplateInput, at: { now: number; txn: number }): Promise<void> {
    await this.store.run(PUT, [accountId, id, template.name, template.subject, template.bodyHtml, at.now, at.now, at.txn]);
  }

  /** Marks a live template deleted; whether there was one. */
  async setDeleted(accountId: number, id: string, at: { now: number; txn: number }): Promise<boolean> {
    const result = await this.store.run('UPDATE email_templates SET deleted = 1, updated_at = ?, changed_txn = ? WHERE account_id = ? AND id = ? AND deleted = 0', [at.now, at.txn, accountId, id]);
    return result.changes > 0;
  }

  /** The txlog id of the account's latest template change (0: none yet). */
  async revision(accountId: number): Promise<number> {
    const row = await this.store.get<{ revision: number | null }>('SELECT MAX(changed_txn) AS revision FROM email_templates WHERE account_id = ?', [accountId]);
    return Number(row?.revision ?? 0);
  }
}
