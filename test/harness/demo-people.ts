/**
 * The demo's people send as their full names ("Alice Tern <alice@tern.test>", issue point
 * 24), not as the name the gateway guesses from an address ("Alice"). A gateway learns an
 * account's name the first time it sees the account and keeps it across logins
 * (src-server/auth/login-service.ts: a known account keeps its name); an operator's
 * directory would tell it, here the demo does: before the gateway starts, each demo
 * account is put into its store with its name, its servers and its password, exactly as a
 * first login would have stored it. Logging in then proves the password against IMAP as
 * always, and the session's account carries the full name.
 */
import type { ServerSettings } from '../../src-server/accounts/account-store';
import { loadConfig } from '../../src-server/config';
import { closeContext, createContext } from '../../src-server/context';
import type { DemoAccount } from './demo-accounts';

export async function registerDemoPeople(params: {
  /** The gateway's data dir (TERN_DATA_DIR), before the gateway starts. */
  readonly dataDir: string;
  readonly accounts: readonly DemoAccount[];
  readonly imap: ServerSettings;
  readonly smtp: ServerSettings;
  /** The environment the gateway will get (TERN_SECRET_KEY, TERN_DATABASE_FILE …), so both open the same store with the same key. */
  readonly env?: NodeJS.ProcessEnv;
}): Promise<void> {
  const ctx = await createContext(loadConfig({ ...params.env, TERN_DATA_DIR: params.dataDir }));
  try {
    for (const account of params.accounts) {
      await ctx.accounts.save({ email: account.email, name: account.name, imap: params.imap, smtp: params.smtp, password: account.password });
    }
  } finally {
    await closeContext(ctx);
  }
}
