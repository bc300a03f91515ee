/**
 * "Keep recent mail offline" on this device (issue 20 point 3): the choice (this browser's,
 * like the thread list's width: a phone may want it where a shared computer may not), and
 * the engine's progress for Settings → Apps. The engine does the fetching
 * (src-worker/queries/body-prefetch.ts); a tab only asks it to, once after its first screen
 * and whenever the choice is turned on.
 */
import type { BodyProgress } from '../../shared/worker-mail-api';

const KEY = 'tern.keepOffline';
/** How far back the bodies can be kept (days), the choices Settings → Apps offers; the first is the default. */
export const OFFLINE_DAY_CHOICES = [30, 7, 90, 365] as const;
/** The most a stored choice may ask for (a benchmark keeps the whole seeded mailbox, two years). */
const MAX_DAYS = 3650;

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

/** The days of mail this browser keeps offline, or null when it keeps none. ('1' is the first version's "on": 30 days.) */
export function keepOfflineDays(): number | null {
  const stored = storage()?.getItem(KEY);
  if (!stored) return null;
  if (stored === '1') return OFFLINE_DAY_CHOICES[0];
  const days = Number(stored);
  return Number.isInteger(days) && days > 0 && days <= MAX_DAYS ? days : null;
}

export const keepOfflineChosen = (): boolean => keepOfflineDays() !== null;

/** Keeps the last `days` days offline from now on (null: none). */
export function chooseKeepOffline(days: number | null): void {
  if (days === null) storage()?.removeItem(KEY);
  else storage()?.setItem(KEY, String(days));
  for (const listener of listeners) listener();
}

export const offlineProgress = (): BodyProgress | null => progress;

export function subscribeToOffline(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type KeepOffline = (params: { accountIds: readonly string[]; days: number }, onProgress: (progress: BodyProgress) => void) => Promise<BodyProgress>;

/** Asks the engine to fetch what is missing of the chosen days; the progress goes to the page. */
export function runKeepOffline(keep: KeepOffline, accountIds: readonly string[]): Promise<BodyProgress | null> {
  const days = keepOfflineDays();
  if (accountIds.length === 0 || days === null) return Promise.resolve(null);
  const report = (next: BodyProgress) => {
    progress = next;
    for (const listener of listeners) listener();
  };
  return keep({ accountIds, days }, report).then(
    (last) => (report(last), last),
    () => null,
  );
}
