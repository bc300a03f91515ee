import type { SqlExecutor } from '../store/sql';
import type { SecretBox } from './secret-box';

/** Account rows whose mail password is sealed (a row being created holds an empty secret for a moment). */
const SEALED = "FROM accounts WHERE length(secret) > 0";

/** How many sealed secrets the store holds: with any, a missing key must not be replaced by a new one. */
export async function sealedSecretCount(store: SqlExecutor): Promise<number> {
  return (await store.get<{ n: number }>(`SELECT count(*) AS n ${SEALED}`))!.n;
}

/**
 * Proves at start-up that the key opens what the store holds, by opening one sealed secret
 * (`open` is the owner's own decryption, e.g. `AccountStore.password`, so the sealing
 * context stays its business). A wrong key would otherwise let the gateway start and then
 * fail every mailbox connection forever; here it stops with a message saying what to do.
 */
export async function assertKeyOpensStore(params: { store: SqlExecutor; box: SecretBox; databasePath: string; open: (accountId: number) => Promise<unknown> }): Promise<void> {
  const sample = await params.store.get<{ id: number }>(`SELECT id ${SEALED} ORDER BY id LIMIT 1`);
  if (!sample) return;
  try {
    await params.open(sample.id);
  } catch {
    throw new Error(
      [
        `The key from ${params.box.source} cannot open the mail passwords stored in ${params.databasePath} (tried account ${sample.id}).`,
        'The key was replaced, or the store was written under another key; the gateway will not start.',
        'Put back the key the store was written with (the old secret.key, or the old TERN_SECRET_KEY).',
        'If that key is lost for good, move the database away to start empty: every user then logs in again.',
      ].join('\n'),
    );
  }
}
