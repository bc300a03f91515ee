/**
 * The small database beside the per-account ones (DESIGN §4): the account list, each
 * account's extras and partner/billing info, the installation's device id, and the
 * analytics queues (the pre-login queue has no account database to live in).
 */
import type { DatabaseSchema } from '../db/schema';

export const ACCOUNTS_DATABASE = 'tern-accounts';

export const ACCOUNTS_TABLES = ['accounts', 'accountExtras', 'accountInfo', 'installation', 'analyticsQueues'] as const;
export type AccountsTable = (typeof ACCOUNTS_TABLES)[number];

export const ACCOUNTS_SCHEMA: DatabaseSchema<AccountsTable> = {
  tables: ACCOUNTS_TABLES,
  steps: [
    {
      // v1: rows are keyed by account id, info by the email key (spec §3), queues by queue id.
      version: 1,
      apply(db) {
        for (const table of ACCOUNTS_TABLES) db.createTable(table);
      },
    },
  ],
};
