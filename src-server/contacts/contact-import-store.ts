import type { ContactImport } from '../../shared/api/contact-imports';
import type { ContactInput } from '../../shared/contacts';
import type { InvalidRow } from '../../shared/contact-files/read-contact-file';
import type { SqlStore } from '../store/sql';

/** Rows of the result listed (the count says how many there were). */
const SKIPPED_LISTED = 200;

const COLUMNS = `id, account_id AS "accountId", state, file_name AS "fileName", format, cards, created, updated, unchanged, written,
  skipped_json AS "skippedJson", skipped_count AS "skippedCount", error_name AS "errorName", error_message AS "errorMessage",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

type SqlRow = Omit<ContactImport, 'skipped' | 'error' | 'format' | 'state'> & {
  accountId: number;
  state: ContactImport['state'];
  format: ContactImport['format'];
  skippedJson: string;
  errorName: string | null;
  errorMessage: string | null;
};

const toImport = ({ skippedJson, errorName, errorMessage, accountId: _account, ...row }: SqlRow): ContactImport => ({
  ...row,
  id: Number(row.id),
  createdAt: Number(row.createdAt),
  updatedAt: Number(row.updatedAt),
  skipped: JSON.parse(skippedJson) as ContactImport['skipped'],
  error: errorName ? { name: errorName, message: errorMessage ?? '' } : null,
});

/** The SQL of address book imports (table contact_imports). */
export class ContactImportStore {
  constructor(private readonly store: SqlStore) {}

  /**
   * A new queued import: its id, or null while the account has an unfinished one (the partial
   * unique index refuses the second on both engines, however close the two requests come).
   */
  async insert(params: { accountId: number; fileName: string; format: string; cards: readonly ContactInput[]; skipped: readonly InvalidRow[]; now: number }): Promise<number | null> {
    const row = await this.store.get<{ id: number }>(
      `INSERT INTO contact_imports (account_id, state, file_name, format, cards_json, cards, skipped_json, skipped_count, created_at, updated_at)
        VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (account_id) WHERE state IN ('queued', 'running') DO NOTHING RETURNING id`,
      [params.accountId, params.fileName, params.format, JSON.stringify(params.cards), params.cards.length, JSON.stringify(params.skipped.slice(0, SKIPPED_LISTED)), params.skipped.length, params.now, params.now],
    );
    return row ? Number(row.id) : null;
  }

  async get(id: number): Promise<(ContactImport & { accountId: number }) | undefined> {
    const row = await this.store.get<SqlRow>(`SELECT ${COLUMNS} FROM contact_imports WHERE id = ?`, [id]);
    return row && { ...toImport(row), accountId: Number(row.accountId) };
  }

  /** The cards the job is to write ([] once written). */
  async cards(id: number): Promise<ContactInput[]> {
    const row = await this.store.get<{ cardsJson: string }>('SELECT cards_json AS "cardsJson" FROM contact_imports WHERE id = ?', [id]);
    return row ? (JSON.parse(row.cardsJson) as ContactInput[]) : [];
  }

  /** The job's plan: running, with what it will write. */
  async start(id: number, counts: { created: number; updated: number; unchanged: number }, now: number): Promise<void> {
    await this.store.run("UPDATE contact_imports SET state = 'running', created = ?, updated = ?, unchanged = ?, written = 0, updated_at = ? WHERE id = ?", [counts.created, counts.updated, counts.unchanged, now, id]);
  }

  async progress(id: number, written: number, now: number): Promise<void> {
    await this.store.run('UPDATE contact_imports SET written = ?, updated_at = ? WHERE id = ?', [written, now, id]);
  }

  /** Finished: done, or failed with the error (the cards are no longer needed either way). */
  async finish(id: number, outcome: { error?: { name: string; message: string } }, now: number): Promise<void> {
    await this.store.run("UPDATE contact_imports SET state = ?, error_name = ?, error_message = ?, cards_json = '[]', updated_at = ? WHERE id = ?", [
      outcome.error ? 'failed' : 'done',
      outcome.error?.name ?? null,
      outcome.error?.message ?? null,
      now,
      id,
    ]);
  }
}
