/**
 * Tells the engine's live parts (thread-list subscriptions) that mail rows changed, after
 * the transaction that changed them committed. In-process only: tabs hear about it as
 * ListPatches, never as raw changes.
 */
import type { StoredRow } from '../db/store';
import type { LocalMessage } from './mail-rows';

/** Message rows one commit wrote (as stored) and removed. */
export interface MessageRowChanges {
  readonly put: readonly LocalMessage[];
  readonly removed: readonly string[];
}

export interface MailChange {
  readonly accountId: string;
  /** Threads whose rows may differ now. */
  readonly threadIds: readonly string[];
  readonly foldersChanged: boolean;
  /** Everything may have changed (cache clear, account added): re-read whole windows. */
  readonly everything?: boolean;
  /**
   * Every Message row the commit wrote or removed, when the writer tells them (delta
   * pages): the search index applies them instead of reading the threads again.
   */
  readonly messages?: MessageRowChanges;
  /**
   * Contact rows (addresses seen, with their ranks) the commit wrote, as stored: the
   * suggestion index takes them as they are. Only delta pages rank mail (contact-tally.ts).
   */
  readonly contacts?: readonly StoredRow[];
}

export interface ChangeFeed {
  emit(change: MailChange): void;
  subscribe(listener: (change: MailChange) => void): () => void;
}

export function createChangeFeed(onError: (error: unknown) => void = () => {}): ChangeFeed {
  const listeners = new Set<(change: MailChange) => void>();
  return {
    emit(change) {
      if (change.threadIds.length === 0 && !change.foldersChanged && !change.everything) return;
      for (const listener of listeners) {
        try {
          listener(change);
        } catch (error) {
          onError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
