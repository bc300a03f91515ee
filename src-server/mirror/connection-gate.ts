/**
 * The sync connection as callers see it: the current one when it is usable, or a short
 * wait for the next one while the mirror (re)connects.
 */
export class ConnectionGate<T extends { readonly usable: boolean }> {
  private current: T | null = null;
  private readonly waiters = new Set<() => void>();

  /** The usable connection, if there is one right now. */
  get value(): T | null {
    return this.current?.usable ? this.current : null;
  }

  open(connection: T): void {
    this.current = connection;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Forgets `connection` if it is still the current one. */
  close(connection: T): void {
    if (this.current === connection) this.current = null;
  }

  /** The usable connection, waiting up to `timeoutMs` for one; null if none came. */
  async wait(timeoutMs: number): Promise<T | null> {
    if (this.value) return this.value;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(wake, timeoutMs);
      const waiters = this.waiters;
      waiters.add(wake);
      function wake() {
        clearTimeout(timer);
        waiters.delete(wake);
        resolve();
      }
    });
    return this.value;
  }
}
