/** What the sync loop can do next: refresh the folder list with its STATUS data, or sync one folder. */
export type SyncTask = { readonly kind: 'sweep' } | { readonly kind: 'folder'; readonly path: string };

/** Lower runs first. New mail in INBOX beats everything; backfill waits for the rest. */
export const PRIORITY = {
  inbox: 0,
  sweep: 1,
  changedFolder: 2,
  inboxBackfill: 3,
  backfill: 4,
} as const;

interface Pending {
  task: SyncTask;
  priority: number;
  order: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

const keyOf = (task: SyncTask) => (task.kind === 'sweep' ? 'sweep' : `folder:${task.path}`);

/**
 * The sync loop's work list: each task at most once, at the most urgent priority it was
 * asked for. Callers that need to know when their request is done (`resyncNow`) get a
 * promise that settles when a run of that task that *started after the request* ends.
 */
export class SyncScheduler {
  private readonly pending = new Map<string, Pending>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly running = new Map<string, Waiter[]>();
  private order = 0;
  private wake: (() => void) | null = null;

  schedule(task: SyncTask, priority: number): void {
    const key = keyOf(task);
    const existing = this.pending.get(key);
    if (!existing) this.pending.set(key, { task, priority, order: this.order++ });
    else if (priority < existing.priority) existing.priority = priority;
    this.wake?.();
  }

  /** Schedules the task and resolves when a run of it that starts from now on has finished. */
  request(task: SyncTask, priority: number): Promise<void> {
    const key = keyOf(task);
    const done = new Promise<void>((resolve, reject) => {
      const list = this.waiting.get(key) ?? [];
      list.push({ resolve, reject });
      this.waiting.set(key, list);
    });
    this.schedule(task, priority);
    // A caller that stopped waiting (a route's timeout) must not turn a later failure into an unhandled rejection.
    done.catch(() => undefined);
    return done;
  }

  /** Takes the most urgent task off the list; null when there is nothing to do. */
  take(): SyncTask | null {
    let best: [string, Pending] | null = null;
    for (const entry of this.pending) {
      if (!best || entry[1].priority < best[1].priority || (entry[1].priority === best[1].priority && entry[1].order < best[1].order)) best = entry;
    }
    if (!best) return null;
    const [key, { task }] = best;
    this.pending.delete(key);
    this.running.set(key, this.waiting.get(key) ?? []);
    this.waiting.delete(key);
    return task;
  }

  /** Reports the end of a task taken with `take`. */
  finish(task: SyncTask, error?: unknown): void {
    const key = keyOf(task);
    const waiters = this.running.get(key) ?? [];
    this.running.delete(key);
    for (const waiter of waiters) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }

  get idle(): boolean {
    return this.pending.size === 0 && this.running.size === 0;
  }

  /** Resolves when something is scheduled (or at once if something already is). */
  whenWork(): Promise<void> {
    if (this.pending.size > 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
    });
  }

  /** Wakes a loop waiting in `whenWork` (used on stop). */
  interrupt(): void {
    this.wake?.();
  }

  /** Fails every request still waiting (the mirror stopped). */
  rejectAll(error: unknown): void {
    for (const list of [...this.waiting.values(), ...this.running.values()]) for (const waiter of list) waiter.reject(error);
    this.waiting.clear();
    this.running.clear();
  }
}
