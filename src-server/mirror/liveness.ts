import type { ImapFlow } from 'imapflow';
import { TernError } from '../../shared/errors';

/**
 * Resolves or rejects as `work` does, unless `ms` pass first: then the connection is
 * closed (which fails whatever it was waiting for) and this rejects with ImapConnectionLost.
 *
 * Why: a connection can die without a FIN or RST (a NAT that forgot the mapping, a laptop
 * that slept, a server restarted behind a proxy). The socket then stays "open" and a
 * command on it waits until the socket timeout (minutes), the watcher's IDLE forever.
 * Closing is what lets the owner reconnect and resync.
 */
export async function withinDeadline<T>(client: ImapFlow, work: Promise<T>, ms: number, onExpired?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpired?.();
      client.close();
      reject(new TernError('ImapConnectionLost', { detail: { reason: `no answer within ${ms} ms` } }));
    }, ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    // The command closing the connection fails too; nobody waits for it any more.
    work.catch(() => undefined);
  }
}

/** A NOOP that must be answered within `ms`, else the connection is closed as dead. */
export async function proveAlive(client: ImapFlow, ms: number): Promise<void> {
  await withinDeadline(client, client.noop(), ms);
}
