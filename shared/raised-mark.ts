/**
 * A thread whose snooze, reminder or follow-up fired (shared/api/timers.ts) sorts at the
 * moment it fired: its `lastMessageAt` is at least that, so it is back on top of the Inbox.
 * One rule for the gateway's summaries and the engine's (which lays local changes over them).
 */
import type { ThreadSummary } from './api/mail';
import type { RaisedMark } from './api/timers';

export function withRaisedMark(summary: ThreadSummary, mark: RaisedMark | undefined): ThreadSummary {
  if (!mark) return summary;
  return { ...summary, raised: mark, lastMessageAt: Math.max(summary.lastMessageAt, mark.at) };
}
