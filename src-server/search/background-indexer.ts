import type { SearchService } from './search-service';

const INDEX_INTERVAL_MS = 1000;

/**
 * Makes mirrored mail searchable in the background, one bounded batch a second, so a search
 * rarely has to index first. Runs from the app's ready to its close.
 */
export class BackgroundIndexer {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(private readonly deps: { search: SearchService; onError: (error: unknown) => void; intervalMs?: number }) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.pass(), this.deps.intervalMs ?? INDEX_INTERVAL_MS);
    this.timer.unref();
  }

  /** One batch, unless the last one is still under way (a slow database must not pile them up). */
  private async pass(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.deps.search.indexSome();
    } catch (error) {
      this.deps.onError(error);
    } finally {
      this.running = false;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
