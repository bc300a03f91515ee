/**
 * Which bodies to fetch before they are opened (issue 13 point 4): the threads around the
 * list's cursor and on screen, the cursor's first, then the rows `j` goes to, then the rows
 * above it, then the rest on screen. The engine takes a few of them (MailQueryService.
 * prefetchNear) and fetches what it does not keep, so `j` then Enter never waits on IMAP.
 */
import { useEffect, useRef } from 'react';
import { useMailActions } from '../state/actions-context';
import { rowAt, type HeldList } from '../state/thread-list/list-patch';
import type { RowRange } from '../kit/virtual-window';

/** Threads asked for at most (the engine's NEAR_THREADS). */
export const NEAR_PREFETCH_THREADS = 12;
/** Rows below the cursor before those above it: `j` is the key pressed most. */
const AHEAD = 5;
const BEHIND = 2;
/**
 * How long the cursor and the rows on screen stay put before their bodies are asked for: a
 * fling or a run of `j` asks once, where it stops, not on every row it passes.
 */
export const NEAR_PREFETCH_DELAY_MS = 150;

export interface NearThread {
  readonly accountId: string;
  readonly threadId: string;
}

/** The threads to prefetch, in the order they are likely to be opened; only rows held and rendered. */
export function nearThreads(held: HeldList | null, cursorIndex: number, range: RowRange, max = NEAR_PREFETCH_THREADS): NearThread[] {
  if (!held || range.end <= range.start) return [];
  const order: number[] = [cursorIndex];
  for (let i = 1; i <= AHEAD; i++) order.push(cursorIndex + i);
  for (let i = 1; i <= BEHIND; i++) order.push(cursorIndex - i);
  for (let i = range.start; i < range.end; i++) order.push(i);
  const seen = new Set<number>();
  const threads: NearThread[] = [];
  for (const index of order) {
    if (threads.length >= max) break;
    if (seen.has(index) || index < range.start || index >= range.end) continue;
    seen.add(index);
    const row = rowAt(held, index);
    if (row) threads.push({ accountId: row.accountId, threadId: row.threadId });
  }
  return threads;
}

/** Asks the engine for the bodies near the cursor once the list and cursor have settled. */
export function useNearPrefetch(held: HeldList | null, cursorIndex: number, range: RowRange): void {
  const actions = useMailActions();
  const threads = nearThreads(held, cursorIndex, range);
  const key = threads.map((thread) => `${thread.accountId}:${thread.threadId}`).join(' ');
  const latest = useRef(threads);
  latest.current = threads;
  const asked = useRef('');
  useEffect(() => {
    if (!key || key === asked.current) return;
    const timer = setTimeout(() => {
      asked.current = key;
      actions.prefetchNear(latest.current);
    }, NEAR_PREFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, actions]);
}
