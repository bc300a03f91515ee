/**
 * Command outcomes for every tab (STYLE item 5): each status goes to every watcher; a tab
 * that starts watching first hears the commands still open and recent outcomes, so an
 * error from a moment ago is not lost on a tab that just opened.
 */
import type { CommandStatus } from '../../shared/worker-mail-api';

const RECENT_LIMIT = 50;

export interface CommandStatusFeed {
  publish(status: CommandStatus): void;
  /** Starts a watch; `onStatus` is usually a comlink proxy (a call may reject when its tab is gone). */
  watch(onStatus: (status: CommandStatus) => unknown): string;
  unwatch(subscriptionId: string): void;
  /** In-process listener (the cross-engine relay); returns an unsubscribe. */
  subscribe(listener: (status: CommandStatus) => void): () => void;
}

export function createCommandStatusFeed(): CommandStatusFeed {
  const watchers = new Map<string, (status: CommandStatus) => unknown>();
  const listeners = new Set<(status: CommandStatus) => void>();
  /** The latest status of recent commands, oldest first. */
  const recent = new Map<string, CommandStatus>();

  const deliver = (subscriptionId: string, onStatus: (status: CommandStatus) => unknown, status: CommandStatus) => {
    // A tab that closed without unwatching rejects (or never answers): forget it on rejection.
    void Promise.resolve()
      .then(() => onStatus(status))
      .catch(() => watchers.delete(subscriptionId));
  };

  return {
    publish(status) {
      recent.delete(status.commandId);
      recent.set(status.commandId, status);
      while (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value as string);
      for (const [id, onStatus] of watchers) deliver(id, onStatus, status);
      for (const listener of listeners) listener(status);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    watch(onStatus) {
      const subscriptionId = crypto.randomUUID();
      watchers.set(subscriptionId, onStatus);
      for (const status of recent.values()) deliver(subscriptionId, onStatus, status);
      return subscriptionId;
    },
    unwatch(subscriptionId) {
      watchers.delete(subscriptionId);
    },
  };
}
