/**
 * Where an account's ManageSieve server is: the operator's domain table first (TERN_MAIL_DOMAINS
 * `sieve`, where null means "none"), else port 4190 on the IMAP host (RFC 5804's port, STARTTLS
 * unless the IMAP server is itself plaintext on loopback). A candidate counts once a login on
 * it succeeds. What was found, or that nothing was, is stored per account (rules-store.ts) and
 * looked for again after a day, so a server that gains ManageSieve is noticed.
 */
import type { AccountRecord } from '../accounts/account-store';
import type { DomainServers } from '../config';
import { ManageSieveClient, type ConnectParams, type SieveEndpoint } from './managesieve-client';

export const MANAGESIEVE_PORT = 4190;
/** How long "no ManageSieve here" is believed before looking again. */
export const SIEVE_RECHECK_MS = 24 * 60 * 60_000;
/** A probe is one connect and login; a server that does not answer in this long has none for us. */
const PROBE_TIMEOUT_MS = 5_000;

/** The endpoints worth trying for the account, best first ([] when the operator says there is none). */
export function sieveCandidates(account: Pick<AccountRecord, 'email' | 'imap'>, domains: ReadonlyMap<string, DomainServers>): SieveEndpoint[] {
  const domain = account.email.slice(account.email.lastIndexOf('@') + 1).toLowerCase();
  const listed = domains.get(domain)?.sieve;
  if (listed === null) return [];
  if (listed) return [{ host: listed.host, port: listed.port, security: listed.security }];
  return [{ host: account.imap.host, port: MANAGESIEVE_PORT, security: account.imap.security === 'none' ? 'none' : 'starttls' }];
}

export type SieveConnect = (params: ConnectParams) => Promise<ManageSieveClient>;

/** The first candidate a login succeeds on, or null. */
export async function probeSieve(params: { candidates: readonly SieveEndpoint[]; user: string; password: string; connect?: SieveConnect }): Promise<SieveEndpoint | null> {
  const connect = params.connect ?? ManageSieveClient.connect;
  for (const endpoint of params.candidates) {
    try {
      const client = await connect({ ...endpoint, user: params.user, password: params.password, timeoutMs: PROBE_TIMEOUT_MS });
      await client.logout();
      return endpoint;
    } catch {
      // Not this one: nothing listens, no STARTTLS, or the login is refused.
    }
  }
  return null;
}
