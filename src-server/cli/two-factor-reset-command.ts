/**
 * `npm run reset-two-factor -- --email <address> [--data-dir <dir>]`: the operator's way back
 * for a person who lost the authenticator, every recovery code and the alternate email (issue
 * 19: never a lock-out without a way back). Turns two-step verification off for the account
 * (its secret and recovery codes deleted); the mailbox password still guards the sign-in, and
 * the person sets two-step verification up again. Runs beside a live gateway on its database:
 * TERN_DATABASE_URL's when set, else the SQLite file of the data dir (TERN_DATA_DIR or --data-dir).
 * Exit 0 done, 2 a usage error (no such account included).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openStore } from '../store/open-store';

const USAGE = `Usage: npm run reset-two-factor -- --email <address> [--data-dir <dir>]
  Turns two-step verification off for the account (after checking who is asking, outside Tern).`;

export interface ResetCommandIo {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Runs the command; resolves to its exit code. */
export async function runTwoFactorReset({ argv, env, out, err }: ResetCommandIo): Promise<number> {
  let values: { email?: string; 'data-dir'?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { email: { type: 'string' }, 'data-dir': { type: 'string' } }, strict: true }));
  } catch (error) {
    err(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (!values.email) {
    err(USAGE);
    return 2;
  }
  const config = loadConfig(env);
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : config.dataDir;
  if (!config.databaseUrl && !existsSync(join(dataDir, config.databaseFile))) {
    err(`No gateway database at ${join(dataDir, config.databaseFile)}. Pass --data-dir.`);
    return 2;
  }
  const store = await openStore({ ...config, dataDir });
  try {
    const email = values.email.trim().toLowerCase();
    const account = await store.get<{ id: number }>('SELECT id FROM accounts WHERE email = ?', [email]);
    if (!account) {
      err(`No account ${email} in ${store.location}.`);
      return 2;
    }
    const removed = await store.transaction(async (tx) => {
      await tx.run('DELETE FROM recovery_codes WHERE account_id = ?', [account.id]);
      return (await tx.run('DELETE FROM two_factor WHERE account_id = ?', [account.id])).changes;
    });
    out(removed > 0 ? `${email}: two-step verification is off; the next sign-in needs only the mailbox password.` : `${email}: two-step verification was not on.`);
    return 0;
  } finally {
    await store.close();
  }
}

// Run as a program (npm run reset-two-factor), not when a test imports it.
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  process.exitCode = await runTwoFactorReset({ argv: process.argv.slice(2), env: process.env, out: console.log, err: console.error });
}
