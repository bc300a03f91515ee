/**
 * Runs async jobs one at a time, in the order they were queued: an IMAP connection
 * answers one conversation at a time, and the mirror's sync and the routes' commands
 * share it.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job, job);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
