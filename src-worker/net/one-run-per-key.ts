/**
 * One run at a time per key, coalescing the calls that come meanwhile: a call while a run is
 * going returns that run and has it go once more when it ends (whatever changed during the
 * first pass is read by the second), however many calls came. The engine's pulls from the
 * gateway (contacts, templates) use it, so a burst of "it changed" pushes costs at most two
 * pulls.
 */
export class OneRunPerKey {
  private readonly runs = new Map<string, { running: Promise<void>; again: boolean }>();

  /** Runs `work` for `key`, or joins (and extends by one pass) the run already going. `work` must not throw. */
  run(key: string, work: () => Promise<void>): Promise<void> {
    const current = this.runs.get(key);
    if (current) {
      current.again = true;
      return current.running;
    }
    const entry = { running: Promise.resolve(), again: false };
    entry.running = (async () => {
      do {
        entry.again = false;
        await work();
      } while (entry.again);
      this.runs.delete(key);
    })();
    this.runs.set(key, entry);
    return entry.running;
  }
}
