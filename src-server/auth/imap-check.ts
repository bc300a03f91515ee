import { ImapFlow, type ImapFlowError } from 'imapflow';
import type { ServerSettings } from '../accounts/account-store';

/** Budget for reaching the server (DNS + TCP + TLS) and, separately, for its greeting. */
export const IMAP_CONNECT_TIMEOUT_MS = 10_000;
/** The whole check, commands included: a server that greets and then stalls must not hold a login form. */
const IMAP_CHECK_DEADLINE_MS = 20_000;

export interface ImapCheckResult {
  /** The personal namespace's hierarchy delimiter ("/" when the server reports none). */
  readonly folderSeparator: string;
}

/**
 * Why a check failed: the server refused the credentials ('auth'), could not be reached
 * at all ('unreachable': unknown host, refused, timed out) or failed otherwise ('failed':
 * TLS, protocol, a server that is down for maintenance).
 */
export type ImapFailureKind = 'auth' | 'unreachable' | 'failed';

export class ImapCheckError extends Error {
  constructor(
    readonly kind: ImapFailureKind,
    /** For the gateway's own log; never sent to a client. */
    readonly reason: string,
  ) {
    super(`IMAP check failed (${kind}): ${reason}`);
  }
}

const UNREACHABLE = new Set([
  'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH',
  'ETIMEDOUT', 'CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'NoConnection',
]);
/** Response codes (RFC 5530) of a refusal that is not about the password. */
const NOT_ABOUT_CREDENTIALS = new Set(['UNAVAILABLE', 'SERVERBUG', 'LIMIT', 'INUSE']);

export function classifyImapError(error: unknown): ImapFailureKind {
  const e = (error ?? {}) as ImapFlowError;
  if (e.authenticationFailed) {
    if (e.serverResponseCode && NOT_ABOUT_CREDENTIALS.has(e.serverResponseCode.toUpperCase())) return 'failed';
    // LOGINDISABLED: the server wants TLS first — a settings problem, not a wrong password.
    if (e.message === 'Login is disabled') return 'failed';
    return 'auth';
  }
  return e.code && UNREACHABLE.has(e.code) ? 'unreachable' : 'failed';
}

/** imapflow's TLS switches for our three security modes. */
function tlsOptions(security: ServerSettings['security']): { secure: boolean; doSTARTTLS?: boolean } {
  if (security === 'tls') return { secure: true };
  if (security === 'starttls') return { secure: false, doSTARTTLS: true };
  return { secure: false, doSTARTTLS: false };
}

/**
 * Logs in once to prove the credentials, reads the folder separator, and logs out.
 * Throws ImapCheckError; the caller turns its kind into a catalogue error.
 */
export async function checkImapLogin(params: { server: ServerSettings; user: string; password: string }): Promise<ImapCheckResult> {
  const client = new ImapFlow({
    host: params.server.host,
    port: params.server.port,
    ...tlsOptions(params.server.security),
    auth: { user: params.user, pass: params.password },
    logger: false,
    connectionTimeout: IMAP_CONNECT_TIMEOUT_MS,
    greetingTimeout: IMAP_CONNECT_TIMEOUT_MS,
    socketTimeout: IMAP_CHECK_DEADLINE_MS,
    disableAutoIdle: true,
    disableCompression: true,
  });
  // Without a listener an 'error' event after a failed connect would crash the gateway.
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('IMAP check deadline'), { code: 'ETIMEDOUT' })), IMAP_CHECK_DEADLINE_MS);
  });
  try {
    await Promise.race([client.connect(), deadline]);
    const folderSeparator = client.namespace?.delimiter || '/';
    await Promise.race([client.logout(), deadline]).catch(() => undefined);
    return { folderSeparator };
  } catch (error) {
    const e = error as ImapFlowError;
    throw new ImapCheckError(classifyImapError(error), [e.code, e.serverResponseCode, e.message].filter(Boolean).join(' '));
  } finally {
    clearTimeout(timer);
    client.close();
  }
}
