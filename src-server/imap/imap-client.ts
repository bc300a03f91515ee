import { ImapFlow, type ImapFlowError } from 'imapflow';
import type { AccountRecord, ServerSettings } from '../accounts/account-store';

/** What a connection is for: the sync connection runs commands, the watcher only idles on INBOX. */
export type ImapPurpose = 'sync' | 'idle';

export interface ImapClientParams {
  readonly account: Pick<AccountRecord, 'email' | 'imap'>;
  /** Decrypted by the caller (`ctx.accounts.password(id)`) right before connecting. */
  readonly password: string;
  readonly purpose: ImapPurpose;
}

/** imapflow's TLS switches for our three security modes. */
export function tlsOptionsOf(security: ServerSettings['security']): { secure: boolean; doSTARTTLS: boolean | undefined } {
  if (security === 'tls') return { secure: true, doSTARTTLS: undefined };
  if (security === 'starttls') return { secure: false, doSTARTTLS: true };
  return { secure: false, doSTARTTLS: false };
}

/**
 * A not-yet-connected ImapFlow for one of the account's connections. QRESYNC is asked
 * for (imapflow falls back to CONDSTORE or plain IMAP on its own). The sync connection
 * never auto-idles: it runs a queue of commands and idling between them would cost two
 * round trips per command. The idle connection starts IDLE as soon as it falls quiet and
 * renews it every few minutes, below the 29-minute limit servers apply (RFC 2177).
 */
export function createImapClient({ account, password, purpose }: ImapClientParams): ImapFlow {
  const client = new ImapFlow({
    host: account.imap.host,
    port: account.imap.port,
    ...tlsOptionsOf(account.imap.security),
    auth: { user: account.email, pass: password },
    logger: false,
    qresync: true,
    clientInfo: { name: 'Tern Mail gateway' },
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    // A stalled server must not hold the sync queue forever; IDLE traffic keeps the idle connection alive.
    socketTimeout: purpose === 'sync' ? 120_000 : 10 * 60_000,
    disableAutoIdle: purpose === 'sync',
    autoIdleDelay: purpose === 'idle' ? 20 : undefined,
    maxIdleTime: purpose === 'idle' ? 5 * 60_000 : undefined,
  });
  // Without a listener an 'error' event would crash the process; the owner reacts to 'close'.
  client.on('error', () => undefined);
  return client;
}

/** Whether a failure means the server refused the credentials (retrying fast would not help). */
export function isAuthFailure(error: unknown): boolean {
  return Boolean((error as ImapFlowError | undefined)?.authenticationFailed);
}
