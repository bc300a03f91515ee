import { DEFAULT_PREFERENCES, readPreferenceValues, type PreferencesDoc, type PreferenceValues } from '../../shared/preferences';
import type { Db } from '../store/database';

/** The SQL of preference documents (table preferences; no row = the defaults at revision 0). */
export class PreferenceStore {
  private readonly getStmt;
  private readonly putStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[number]>('SELECT revision, values_json AS valuesJson, updated_at AS updatedAt FROM preferences WHERE account_id = ?');
    this.putStmt = db.prepare<[number, number, string, number]>(
      `INSERT INTO preferences (account_id, revision, values_json, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET revision = excluded.revision, values_json = excluded.values_json, updated_at = excluded.updated_at`,
    );
  }

  get(accountId: number): PreferencesDoc {
    const row = this.getStmt.get(accountId) as { revision: number; valuesJson: string; updatedAt: number } | undefined;
    if (!row) return { revision: 0, values: { ...DEFAULT_PREFERENCES }, updatedAt: 0 };
    return { revision: row.revision, values: readPreferenceValues(parseJson(row.valuesJson)), updatedAt: row.updatedAt };
  }

  put(accountId: number, doc: { revision: number; values: PreferenceValues; updatedAt: number }): void {
    this.putStmt.run(accountId, doc.revision, JSON.stringify(doc.values), doc.updatedAt);
  }
}

/** A damaged document reads as the defaults rather than failing every device's sync. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
