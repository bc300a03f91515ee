import type { SecretBox } from '../crypto/secret-box';
import type { Db } from '../store/database';

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

/** Accounts the gateway serves; their passwords are sealed with the SecretBox, never stored plain. */
export class AccountStore {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {}

  /** Creates the account or refreshes its settings and password (a login with a new password). */
  save(params: { email: string; name: string; imap: ServerSettings; smtp: ServerSettings; password: string }): AccountRecord {
    return this.db.transaction(() => {
      const existing = this.byEmail(params.email);
      const id =
        existing?.id ??
        Number(
          this.db
            .prepare(
              `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, x'', ?)`,
            )
            .run(params.email, params.name, params.imap.host, params.imap.port, params.imap.security, params.smtp.host, params.smtp.port, params.smtp.security, Date.now())
            .lastInsertRowid,
        );
      this.db
        .prepare(
          `UPDATE accounts SET name = ?, imap_host = ?, imap_port = ?, imap_security = ?, smtp_host = ?, smtp_port = ?, smtp_security = ?, secret = ? WHERE id = ?`,
        )
        .run(params.name, params.imap.host, params.imap.port, params.imap.security, params.smtp.host, params.smtp.port, params.smtp.security, this.secrets.seal(params.password, `account:${id}`), id);
      return this.get(id)!;
    })();
  }

  get(id: number): AccountRecord | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return row && toRecord(row);
  }

  byEmail(email: string): AccountRecord | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE email = ?').get(email) as AccountRow | undefined;
    return row && toRecord(row);
  }

  all(): AccountRecord[] {
    return (this.db.prepare('SELECT * FROM accounts ORDER BY id').all() as AccountRow[]).map(toRecord);
  }

  /** The account's mail password, decrypted only for the moment a connection needs it. */
  password(id: number): string {
    const row = this.db.prepare('SELECT secret FROM accounts WHERE id = ?').get(id) as { secret: Buffer } | undefined;
    if (!row) throw new Error(`No account ${id}`);
    return this.secrets.open(row.secret, `account:${id}`);
  }
}
