/**
 * "Keep recent mail offline" on this device (issue 20 point 3): the choice (this browser's,
 * like the thread list's width: a phone may want it where a shared computer may not), and
 * the engine's progress for Settings → Apps. The engine does the fetching
 * (src-worker/queries/body-prefetch.ts); a tab only asks it to, once after its first screen
 * and whenever the choice is turned on.
 */
import type { BodyProgress } from '../../shared/worker-mail-api';

const KEY = 'tern.keepOffline';
/** How far back the bodies are kept. */
export const OFFLINE_DAYS = 30;

type Listener = () => void;
const listeners = new Set<Listener>();
let progress: BodyProgress | null = null;

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

export const keepOfflineChosen = (): boolean => storage()?.getItem(KEY) === '1';

export function chooseKeepOffline(on: boolean): void {
  if (on) storage()?.setItem(KEY, '1');
  else storage()?.removeItem(KEY);
  for (const listener of listeners) listener();
}

export const offlineProgress = (): BodyProgress | null => progress;

export function subscribeToOffline(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type KeepOffline = (params: { accountIds: readonly string[]; days: number }, onProgress: (progress: BodyProgress) => void) => Promise<BodyProgress>;

/** Asks the engine to fetch what is missing; the progress goes to the page. */
export function runKeepOffline(keep: KeepOffline, accountIds: readonly string[]): Promise<BodyProgress | null> {
  if (accountIds.length === 0) return Promise.resolve(null);
  const report = (next: BodyProgress) => {
    progress = next;
    for (const listener of listeners) listener();
  };
  return keep({ accountIds, days: OFFLINE_DAYS }, report).then(
    (last) => (report(last), last),
    () => null,
  );
}
