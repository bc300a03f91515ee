import type { SecretBox } from '../crypto/secret-box';
import type { SqlStore } from '../store/sql';

export type Security = 'tls' | 'starttls' | 'none';

/** Where and how to reach one mail protocol of an account. */
export interface ServerSettings {
  readonly host: string;
  readonly port: number;
  readonly security: Security;
}

export interface AccountRecord {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly imap: ServerSettings;
  readonly smtp: ServerSettings;
  readonly latestTxnId: number;
}

interface AccountRow {
  id: number;
  email: string;
  name: string;
  imap_host: string;
  imap_port: number;
  imap_security: Security;
  smtp_host: string;
  smtp_port: number;
  smtp_security: Security;
  latest_txn_id: number;
}

const toRecord = (row: AccountRow): AccountRecord => ({
  id: row.id,
  email: row.email,
  name: row.name,
  imap: { host: row.imap_host, port: row.imap_port, security: row.imap_security },
  smtp: { host: row.smtp_host, port: row.smtp_port, security: row.smtp_security },
  latestTxnId: row.latest_txn_id,
});

const COLUMNS = 'id, email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, latest_txn_id';

/**
 * A new account's row, or the known one's settings refreshed, in one statement (two logins
 * of a new address at once find one row on either engine). A new row holds an empty secret
 * until the next statement seals the password: sealing needs the row's id.
 */
const UPSERT = `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (email) DO UPDATE SET name = excluded.name, imap_host = excluded.imap_host, imap_port = excluded.imap_port,
    imap_security = excluded.imap_security, smtp_host = excluded.smtp_host, smtp_port = excluded.smtp_port, smtp_security = excluded.smtp_security
  RETURNING id`;
const SEAL = 'UPDATE accounts SET secret = ? WHERE id = ?';
const BY_ID = `SELECT ${COLUMNS} FROM accounts WHERE id = ?`;
const BY_EMAIL = `SELECT ${COLUMNS} FROM accounts WHERE email = ?`;
const ALL = `SELECT ${COLUMNS} FROM accounts ORDER BY id`;
const SECRET = 'SELECT secret FROM accounts WHERE id = ?';

/** Accounts the gateway serves; their passwords are sealed with the SecretBox, never stored plain. */
export class AccountStore {
  constructor(
    private readonly store: SqlStore,
    private readonly secrets: SecretBox,
  ) {}

  /** Creates the account or refreshes its settings and password (a login with a new password). */
  save(params: { email: string; name: string; imap: ServerSettings; smtp: ServerSettings; password: string }): Promise<AccountRecord> {
    return this.store.transaction(async (tx) => {
      const { imap, smtp } = params;
      const row = await tx.get<{ id: number }>(UPSERT, [params.email, params.name, imap.host, imap.port, imap.security, smtp.host, smtp.port, smtp.security, Buffer.alloc(0), Date.now()]);
      const id = row!.id;
      await tx.run(SEAL, [this.secrets.seal(params.password, `account:${id}`), id]);
      return (await this.get(id))!;
    });
  }

  async get(id: number): Promise<AccountRecord | undefined> {
    const row = await this.store.get<AccountRow>(BY_ID, [id]);
    return row && toRecord(row);
  }

  async byEmail(email: string): Promise<AccountRecord | undefined> {
    const row = await this.store.get<AccountRow>(BY_EMAIL, [email]);
    return row && toRecord(row);
  }

  async all(): Promise<AccountRecord[]> {
    return (await this.store.all<AccountRow>(ALL)).map(toRecord);
  }

  /** The account's mail password, decrypted only for the moment a connection needs it. */
  async password(id: number): Promise<string> {
    const row = await this.store.get<{ secret: Buffer }>(SECRET, [id]);
    if (!row) throw new Error(`No account ${id}`);
    return this.secrets.open(row.secret, `account:${id}`);
  }
}
