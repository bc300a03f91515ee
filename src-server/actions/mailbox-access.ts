import type { ImapFlow, MailboxObject } from 'imapflow';
import type { MirrorManager } from '../mirror/mirror-manager';

export interface MailboxAccessDeps {
  readonly mirrors: Pick<MirrorManager, 'get' | 'withMailbox'>;
  readonly onError?: (accountId: number, error: unknown) => void;
}

/**
 * How the gateway's own commands reach an account's IMAP server. While the account has a
 * mirror, through its queue (`withMailbox`: commands take turns with the sync, and the
 * mirror learns what changed); otherwise — a send finishing after the last logout or
 * after a restart — over a short-lived connection of its own.
 */
export class MailboxAccess {
  constructor(private readonly deps: MailboxAccessDeps) {}

  withFolder<T>(accountId: number, path: string, fn: (client: ImapFlow, mailbox: MailboxObject) => Promise<T>): Promise<T> {
    return this.deps.mirrors.withMailbox(accountId, path, fn);
  }

  /**
   * Waits until the mirror (and so the transaction log) reflects these folders. A failure is
   * reported, not thrown: the IMAP change is done, and the mirror's own sync catches up.
   */
  async settle(accountId: number, paths: Iterable<string>): Promise<void> {
    const mirror = this.deps.mirrors.get(accountId);
    if (!mirror) return;
    await Promise.all(
      [...new Set(paths)].map((path) => mirror.resyncNow(path).catch((error: unknown) => this.deps.onError?.(accountId, error))),
    );
  }
}
