import { DEFAULT_PREFERENCES, readPreferenceValues, type PreferencesDoc, type PreferenceValues } from '../../shared/preferences';
import type { SqlStore } from '../store/sql';

const GET = 'SELECT revision, values_json AS "valuesJson", updated_at AS "updatedAt" FROM preferences WHERE account_id = ?';
const PUT = `INSERT INTO preferences (account_id, revision, values_json, updated_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (account_id) DO UPDATE SET revision = excluded.revision, values_json = excluded.values_json, updated_at = excluded.updated_at`;

/** The SQL of preference documents (table preferences; no row = the defaults at revision 0). */
export class PreferenceStore {
  constructor(private readonly store: SqlStore) {}

  async get(accountId: number): Promise<PreferencesDoc> {
    const row = await this.store.get<{ revision: number; valuesJson: string; updatedAt: number }>(GET, [accountId]);
    if (!row) return { revision: 0, values: { ...DEFAULT_PREFERENCES }, updatedAt: 0 };
    return { revision: row.revision, values: readPreferenceValues(parseJson(row.valuesJson)), updatedAt: row.updatedAt };
  }

  async put(accountId: number, doc: { revision: number; values: PreferenceValues; updatedAt: number }): Promise<void> {
    await this.store.run(PUT, [accountId, doc.revision, JSON.stringify(doc.values), doc.updatedAt]);
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
