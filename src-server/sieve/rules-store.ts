import { EMPTY_RULES, readMailRules, type MailRules } from '../../shared/mail-rules';
import type { SqlStore } from '../store/sql';
import type { SieveEndpoint } from './managesieve-client';

/** An account's rules as the gateway keeps them (table mail_rules). */
export interface StoredRules {
  readonly revision: number;
  readonly rules: MailRules;
  readonly keptScript: string | null;
  readonly updatedAt: number;
}

/** What discovery found (table sieve_servers): an endpoint, or null for "none". */
export interface StoredSieveServer {
  readonly endpoint: SieveEndpoint | null;
  readonly checkedAt: number;
}

const GET_RULES = 'SELECT revision, rules_json AS "rulesJson", kept_script AS "keptScript", updated_at AS "updatedAt" FROM mail_rules WHERE account_id = ?';
const PUT_RULES = `INSERT INTO mail_rules (account_id, revision, rules_json, kept_script, updated_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (account_id) DO UPDATE SET revision = excluded.revision, rules_json = excluded.rules_json, kept_script = excluded.kept_script, updated_at = excluded.updated_at`;
const GET_SERVER = 'SELECT host, port, security, checked_at AS "checkedAt" FROM sieve_servers WHERE account_id = ?';
const PUT_SERVER = `INSERT INTO sieve_servers (account_id, host, port, security, checked_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (account_id) DO UPDATE SET host = excluded.host, port = excluded.port, security = excluded.security, checked_at = excluded.checked_at`;

/** The SQL of rule documents and discovered ManageSieve servers. */
export class RulesStore {
  constructor(private readonly store: SqlStore) {}

  async getRules(accountId: number): Promise<StoredRules> {
    const row = await this.store.get<{ revision: number; rulesJson: string; keptScript: string | null; updatedAt: number }>(GET_RULES, [accountId]);
    if (!row) return { revision: 0, rules: EMPTY_RULES, keptScript: null, updatedAt: 0 };
    return { revision: Number(row.revision), rules: readMailRules(parseJson(row.rulesJson)), keptScript: row.keptScript, updatedAt: Number(row.updatedAt) };
  }

  async putRules(accountId: number, stored: StoredRules): Promise<void> {
    await this.store.run(PUT_RULES, [accountId, stored.revision, JSON.stringify(stored.rules), stored.keptScript, stored.updatedAt]);
  }

  /** Accounts whose rules have the business-hours reply on (the DST check's candidates). */
  async withBusinessHours(): Promise<{ accountId: number; stored: StoredRules }[]> {
    const rows = await this.store.all<{ accountId: number; revision: number; rulesJson: string; keptScript: string | null; updatedAt: number }>(
      'SELECT account_id AS "accountId", revision, rules_json AS "rulesJson", kept_script AS "keptScript", updated_at AS "updatedAt" FROM mail_rules',
    );
    return rows
      .map((row) => ({ accountId: Number(row.accountId), stored: { revision: Number(row.revision), rules: readMailRules(parseJson(row.rulesJson)), keptScript: row.keptScript, updatedAt: Number(row.updatedAt) } }))
      .filter(({ stored }) => stored.rules.businessHours.enabled);
  }

  async getServer(accountId: number): Promise<StoredSieveServer | undefined> {
    const row = await this.store.get<{ host: string | null; port: number | null; security: string | null; checkedAt: number }>(GET_SERVER, [accountId]);
    if (!row) return undefined;
    const security = row.security === 'starttls' || row.security === 'tls' || row.security === 'none' ? row.security : null;
    const endpoint: SieveEndpoint | null = row.host && row.port && security ? { host: row.host, port: Number(row.port), security } : null;
    return { endpoint, checkedAt: Number(row.checkedAt) };
  }

  async putServer(accountId: number, endpoint: SieveEndpoint | null, checkedAt: number): Promise<void> {
    await this.store.run(PUT_SERVER, [accountId, endpoint?.host ?? null, endpoint?.port ?? null, endpoint?.security ?? null, checkedAt]);
  }
}

/** A damaged document reads as no rules rather than failing the page. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
