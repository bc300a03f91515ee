import type { Label, LabelColor } from '../../shared/labels';
import { labelColorSchema } from '../../shared/labels';
import type { SqlExecutor } from '../store/sql';

type SqlRow = { id: number; keyword: string; name: string; color: string };

const COLUMNS = 'id, keyword, name, color';

/** A colour this build does not know reads as grey rather than failing every device's sync. */
const toLabel = (row: SqlRow): Label => ({ id: String(row.id), keyword: row.keyword, name: row.name, color: labelColorSchema.catch('grey').parse(row.color) });

/** The SQL of the label table (labels): keyword ↔ name ↔ colour per account. */
export class LabelStore {
  constructor(private readonly store: SqlExecutor) {}

  async list(accountId: number): Promise<Label[]> {
    return (await this.store.all<SqlRow>(`SELECT ${COLUMNS} FROM labels WHERE account_id = ? ORDER BY id`, [accountId])).map(toLabel);
  }

  async get(accountId: number, id: number): Promise<Label | null> {
    const row = await this.store.get<SqlRow>(`SELECT ${COLUMNS} FROM labels WHERE account_id = ? AND id = ?`, [accountId, id]);
    return row ? toLabel(row) : null;
  }

  async byKeyword(accountId: number, keyword: string): Promise<Label | null> {
    const row = await this.store.get<SqlRow>(`SELECT ${COLUMNS} FROM labels WHERE account_id = ? AND keyword = ?`, [accountId, keyword]);
    return row ? toLabel(row) : null;
  }

  async insert(accountId: number, label: { keyword: string; name: string; color: LabelColor; now: number }): Promise<void> {
    await this.store.run('INSERT INTO labels (account_id, keyword, name, name_key, color, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      accountId,
      label.keyword,
      label.name,
      label.name.toLocaleLowerCase(),
      label.color,
      label.now,
    ]);
  }

  async update(accountId: number, id: number, label: { name: string; color: LabelColor }): Promise<void> {
    await this.store.run('UPDATE labels SET name = ?, name_key = ?, color = ? WHERE account_id = ? AND id = ?', [label.name, label.name.toLocaleLowerCase(), label.color, accountId, id]);
  }

  async delete(accountId: number, id: number): Promise<void> {
    await this.store.run('DELETE FROM labels WHERE account_id = ? AND id = ?', [accountId, id]);
  }

  /**
   * Where a keyword is on the account's mirrored mail: each folder's path and the UIDs
   * carrying it. The flags column is a JSON list; LIKE narrows (case-insensitive on SQLite,
   * not on PostgreSQL), the exact match is made here.
   */
  async carriers(accountId: number, keyword: string): Promise<Map<string, number[]>> {
    const rows = await this.store.all<{ path: string; uid: number; flags: string }>(
      `SELECT f.path, m.uid, m.flags FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? AND m.flags LIKE ?`,
      // A keyword holds no % and no quote; its `_` matches any one character, which the exact match below settles.
      [accountId, `%${JSON.stringify(keyword)}%`],
    );
    const byFolder = new Map<string, number[]>();
    for (const row of rows) {
      if (!(JSON.parse(row.flags) as string[]).includes(keyword)) continue;
      byFolder.set(row.path, [...(byFolder.get(row.path) ?? []), Number(row.uid)]);
    }
    return byFolder;
  }
}
