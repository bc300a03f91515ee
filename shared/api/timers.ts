/**
 * Snooze, reminders and follow-ups (issue 15 points 3–4): a time on a thread that the
 * gateway keeps, so it fires with every browser closed. The spec's calls are "reminders
 * (upsert, get)" and "follow-up fetch, add, update, delete"; snooze has its own pair
 * because it moves mail. Times are chosen like a scheduled send's (shared/send-time.ts):
 * a wall-clock time in an IANA zone, refused when past, over a year ahead or in a DST gap.
 */
import * as z from 'zod';
import { scheduleSchema } from '../send-time';
import { objectIdSchema } from './compose';

/** What a timer does when it fires: bring a snoozed thread back, remind, or follow up a sent message that got no reply. */
export const TIMER_KINDS = ['snooze', 'remind', 'followUp'] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

/** Where a timer stands: waiting for its time, or fired and marking its thread until dismissed. */
export const TIMER_STATES = ['waiting', 'raised'] as const;
export type TimerState = (typeof TIMER_STATES)[number];

export const threadTimerSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  kind: z.enum(TIMER_KINDS),
  state: z.enum(TIMER_STATES),
  /** When it fires (epoch ms UTC). */
  dueAt: z.number().int(),
  /** The zone the time was chosen in. */
  timeZone: z.string(),
  /** When it fired (raised); null while waiting. */
  raisedAt: z.number().int().nullable(),
  /** A follow-up's sent message (the one a reply must answer); null for the others. */
  messageId: z.string().nullable(),
  /** The thread's subject when the timer was set (lists show it without the thread at hand). */
  subject: z.string(),
});
export type ThreadTimer = z.infer<typeof threadTimerSchema>;

/** GET /api/reminders and the delta's `timers` document: the account's waiting and raised timers, soonest first. */
export const timersDocSchema = z.object({ timers: z.array(threadTimerSchema) });
export type TimersDoc = z.infer<typeof timersDocSchema>;

/** POST /api/snoozes: hide a thread until a time. POST /api/reminders/upsert: remind me of it then (one reminder per thread: a new time replaces the old). */
export const threadTimerRequestSchema = z.strictObject({ threadId: objectIdSchema, schedule: scheduleSchema });
export type ThreadTimerRequest = z.output<typeof threadTimerRequestSchema>;

/** POST /api/follow-ups: "follow up if no reply by …" on a message the account sent. */
export const followUpRequestSchema = z.strictObject({ messageId: objectIdSchema, schedule: scheduleSchema });
export type FollowUpRequest = z.output<typeof followUpRequestSchema>;

/** PUT /api/follow-ups/:id: another time. */
export const followUpUpdateSchema = z.strictObject({ schedule: scheduleSchema });

/** A thread's mark once its timer fired (ThreadSummary.raised): it sorts at `at`, on top of the Inbox, until dismissed. */
export const raisedMarkSchema = z.object({ timerId: z.string(), kind: z.enum(TIMER_KINDS), at: z.number().int() });
export type RaisedMark = z.infer<typeof raisedMarkSchema>;

/** The answer of a change: the timer (null once gone) and the log position to wait for. */
export const timerResultSchema = z.object({ timer: threadTimerSchema.nullable(), latestTxnId: z.number().int() });
export type TimerResult = z.infer<typeof timerResultSchema>;
