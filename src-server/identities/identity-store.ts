import type { Identity, IdentityInput } from '../../shared/identities';
import type { SqlStore } from '../store/sql';

type SqlRow = {
  id: string;
  name: string;
  email: string;
  replyTo: string | null;
  bccSelf: number;
  isDefault: number;
  signatureHtml: string;
  signatureOnReplies: number;
  updatedAt: number;
};

const COLUMNS = `id, name, email, reply_to AS "replyTo", bcc_self AS "bccSelf", is_default AS "isDefault",
  signature_html AS "signatureHtml", signature_on_replies AS "signatureOnReplies", updated_at AS "updatedAt"`;

const LIST = `SELECT ${COLUMNS} FROM identities WHERE account_id = ? ORDER BY email`;
const PUT = `INSERT INTO identities (account_id, id, name, email, reply_to, bcc_self, is_default, signature_html, signature_on_replies, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (account_id, id) DO UPDATE SET name = excluded.name, email = excluded.email, reply_to = excluded.reply_to,
    bcc_self = excluded.bcc_self, is_default = excluded.is_default, signature_html = excluded.signature_html,
    signature_on_replies = excluded.signature_on_replies, updated_at = excluded.updated_at`;
const PUT_REVISION = `INSERT INTO identity_revisions (account_id, revision) VALUES (?, ?)
  ON CONFLICT (account_id) DO UPDATE SET revision = excluded.revision`;

const toIdentity = (row: SqlRow): Identity => ({
  id: row.id,
  name: row.name,
  email: row.email,
  replyTo: row.replyTo,
  bccSelf: row.bccSelf === 1,
  isDefault: row.isDefault === 1,
  signatureHtml: row.signatureHtml,
  signatureOnReplies: row.signatureOnReplies === 1,
  updatedAt: Number(row.updatedAt),
});

/** The SQL of identities (tables identities and identity_revisions). */
export class IdentityStore {
  constructor(private readonly store: SqlStore) {}

  /** The stored identities, by address (the own one only once edited). */
  async list(accountId: number): Promise<Identity[]> {
    return (await this.store.all<SqlRow>(LIST, [accountId])).map(toIdentity);
  }

  async revision(accountId: number): Promise<number> {
    const row = await this.store.get<{ revision: number }>('SELECT revision FROM identity_revisions WHERE account_id = ?', [accountId]);
    return row ? Number(row.revision) : 0;
  }

  async put(accountId: number, id: string, identity: IdentityInput, updatedAt: number): Promise<void> {
    const { name, email, replyTo, bccSelf, isDefault, signatureHtml, signatureOnReplies } = identity;
    await this.store.run(PUT, [accountId, id, name, email, replyTo, bccSelf ? 1 : 0, isDefault ? 1 : 0, signatureHtml, signatureOnReplies ? 1 : 0, updatedAt]);
  }

  /** Whether a row was there to delete. */
  async delete(accountId: number, id: string): Promise<boolean> {
    return (await this.store.run('DELETE FROM identities WHERE account_id = ? AND id = ?', [accountId, id])).changes > 0;
  }

  /** No identity is the default any more but `keep` (the one just made default). */
  async clearDefaultExcept(accountId: number, keep: string): Promise<void> {
    await this.store.run('UPDATE identities SET is_default = 0 WHERE account_id = ? AND id <> ? AND is_default = 1', [accountId, keep]);
  }

  async setRevision(accountId: number, revision: number): Promise<void> {
    await this.store.run(PUT_REVISION, [accountId, revision]);
  }
}
