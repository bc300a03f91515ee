/**
 * Holds the engine's start-up work back until the first screen is answered (DESIGN §8:
 * warm start ≤ 250 ms). A reloaded tab asks for its list within milliseconds of the
 * engine starting; sync start-up (cursor reads, delta, websocket), the search index build
 * (a read of every message) and analytics would otherwise share the worker's thread and
 * IndexedDB with that read. They wait for whichever comes first:
 *
 *   - the first thread list answered (or failed) for any tab;
 *   - no stored account having anything cached (logged out, a login in progress: there is
 *     no first screen to read, and a new account needs its sync for any screen at all);
 *   - `waitMs` after the engine started (a tab showing something else).
 */
export interface StartupGate {
  /** Resolves when start-up work may run; never rejects. */
  readonly opened: Promise<void>;
  readonly isOpen: boolean;
  /** Opens the gate (idempotent); `reason` is kept for tests and logs. */
  open(reason: string): void;
  /** Why it opened, once it has. */
  readonly reason: string | null;
}

/** A timer that does not keep Node (tests) alive; browsers have no unref. */
function unrefTimer(run: () => void, ms: number): void {
  const timer = setTimeout(run, ms) as { unref?: () => void };
  timer.unref?.();
}

export function createStartupGate(params: { waitMs: number; setTimer?: (run: () => void, ms: number) => unknown }): StartupGate {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  let reason: string | null = null;
  const gate: StartupGate = {
    opened,
    get isOpen() {
      return reason !== null;
    },
    get reason() {
      return reason;
    },
    open(why) {
      if (reason !== null) return;
      reason = why;
      release();
    },
  };
  if (params.waitMs <= 0) gate.open('no wait');
  else (params.setTimer ?? unrefTimer)(() => gate.open('timeout'), params.waitMs);
  return gate;
}
