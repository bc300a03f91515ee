/** Reconnect delays: 0.5 s doubling to a cap (30 s), with ±20 % jitter so many accounts don't reconnect in step. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly options: { baseMs: number; capMs: number; random?: () => number } = { baseMs: 500, capMs: 30_000 },
  ) {}

  next(): number {
    const raw = Math.min(this.options.capMs, this.options.baseMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    const jitter = 0.8 + 0.4 * (this.options.random ?? Math.random)();
    return Math.round(Math.min(this.options.capMs, raw * jitter));
  }

  /** After a connection that worked: the next failure starts from the base delay again. */
  reset(): void {
    this.attempt = 0;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
