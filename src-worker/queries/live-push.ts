/**
 * What every live query (list-subscriptions.ts, thread-subscriptions.ts) does the same way:
 * refresh single-flight, and hand a push to a tab waiting for its answer.
 */

/** A live query's refresh state: one running at a time, changes meanwhile fold into one more. */
export interface Flight {
  running: Promise<void> | null;
  again: boolean;
}

/** Runs `update` unless one runs; then once more after it, while the query is `live`. */
export function refreshOnce(flight: Flight, update: () => Promise<void>, params: { readonly live: () => boolean; readonly onError?: (error: unknown) => void }): void {
  if (flight.running) {
    flight.again = true;
    return;
  }
  flight.running = update()
    .catch((error: unknown) => params.onError?.(error))
    .finally(() => {
      flight.running = null;
      if (flight.again && params.live()) {
        flight.again = false;
        refreshOnce(flight, update, params);
      }
    });
}

/**
 * Hands a push to a tab and waits for its answer: that paces the pushes to what it can
 * render. False when it threw or did not answer within `timeoutMs` (a closed port never
 * answers): the tab is gone and its query should end.
 */
export async function pushToTab(send: () => unknown, timeoutMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gone = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error('no answer')), timeoutMs)));
  try {
    await Promise.race([send(), gone]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
