/**
 * When a held or scheduled message leaves (issue 15 points 1–2): the rules the composer
 * checks as the person picks and the gateway enforces when it stores the send. A scheduled
 * time is chosen as a wall-clock time in an IANA zone and stored as UTC plus that zone; the
 * conversion is here, once, so a time that does not exist there (the hour skipped when the
 * clocks go forward) is refused by both with the same error instead of silently shifted.
 */
import * as z from 'zod';
import type { ErrorName } from './errors';

/** The undo window a person may choose (preference `undoSendSeconds`), in seconds. */
export const UNDO_SEND_SECONDS = { min: 5, max: 30, default: 5 } as const;
/** The longest hold POST /api/send accepts for undo (ms); longer is a scheduled send. */
export const MAX_UNDO_HOLD_MS = UNDO_SEND_SECONDS.max * 1000;
/** How far ahead a message may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 365 * 24 * 60 * 60_000;
/** A scheduled message that leaves later than this after its time is marked "sent late". */
export const SENT_LATE_AFTER_MS = 5 * 60_000;
/**
 * The keyword on the Sent copy of a message that left late (the gateway was down at its
 * time): every device shows "Sent late" from the mailbox itself; other programs ignore it.
 */
export const SENT_LATE_KEYWORD = '$SentLate';

/** Whether a scheduled send left more than SENT_LATE_AFTER_MS after its time. */
export function leftLate(send: { readonly scheduled: boolean; readonly sendAt: number | null; readonly sentAt: number | null }): boolean {
  return send.scheduled && send.sendAt !== null && send.sentAt !== null && send.sentAt - send.sendAt > SENT_LATE_AFTER_MS;
}
/** The hour the presets ("tomorrow morning", "Monday") send at, local time. */
export const PRESET_HOUR = 8;

/** A wall-clock time as a `datetime-local` input gives it: `2026-03-29T02:30`. */
export const localTimeSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Use YYYY-MM-DDTHH:mm.');

/** An IANA zone this runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0 && zone.length <= 64;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z.string().refine(isTimeZone, 'Not a known time zone.');

/** A scheduled send as the composer asks for it: a local time and the zone it means. */
export const scheduleSchema = z.object({ at: localTimeSchema, timeZone: timeZoneSchema });
export type Schedule = z.infer<typeof scheduleSchema>;

interface Fields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of instant `utc` in `zone`. */
export function fieldsIn(utc: number, zone: string): Fields & { readonly weekday: number } {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(utc)).map((part) => [part.type, part.value]));
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday ?? '');
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) % 24, minute: Number(parts.minute), weekday };
}

const asUtc = (f: Fields) => Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute);
const same = (a: Fields, b: Fields) => a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute;

function parseLocal(at: string): Fields {
  const [date, time] = at.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { year, month, day, hour, minute };
}

/**
 * The UTC instant of wall-clock `at` in `zone`; null when that time does not exist there (a
 * DST gap) or is no date at all (Feb 30). A time that exists twice (the hour repeated when
 * the clocks go back) is its first occurrence.
 */
export function zonedToUtc(at: string, zone: string): number | null {
  const wanted = parseLocal(at);
  const guess = asUtc(wanted);
  // Offsets around the guess: the zone's offset a day either side covers any transition.
  const candidates = [guess - 36 * 3600_000, guess, guess + 36 * 3600_000]
    .map((t) => asUtc(fieldsIn(t, zone)) - t)
    .map((offset) => guess - offset)
    .sort((a, b) => a - b);
  for (const candidate of candidates) if (same(fieldsIn(candidate, zone), wanted)) return candidate;
  return null;
}

/** The wall-clock time of `utc` in `zone`, as `zonedToUtc` takes it. */
export function utcToLocal(utc: number, zone: string): string {
  const f = fieldsIn(utc, zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${f.year}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}`;
}

export type ScheduleCheck = { readonly ok: true; readonly sendAt: number } | { readonly ok: false; readonly error: Extract<ErrorName, 'ScheduleTimeInPast' | 'ScheduleTimeTooFar' | 'ScheduleTimeNonexistent'> };

/** Whether `schedule` may be used at `now`: its UTC instant, or the catalogue error that says why not. */
export function checkSchedule(schedule: Schedule, now: number): ScheduleCheck {
  const sendAt = zonedToUtc(schedule.at, schedule.timeZone);
  if (sendAt === null) return { ok: false, error: 'ScheduleTimeNonexistent' };
  if (sendAt <= now) return { ok: false, error: 'ScheduleTimeInPast' };
  if (sendAt - now > MAX_SCHEDULE_AHEAD_MS) return { ok: false, error: 'ScheduleTimeTooFar' };
  return { ok: true, sendAt };
}

/** The day after `local`'s date (`YYYY-MM-DD`), by the calendar. */
function addDays(f: Fields, days: number): Fields {
  const d = new Date(Date.UTC(f.year, f.month - 1, f.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: f.hour, minute: f.minute };
}

function localAt(f: Fields, hour: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${f.year}-${pad(f.month)}-${pad(f.day)}T${pad(hour)}:00`;
}

/** The presets of "Send later" at `now` in `zone`: tomorrow at 8:00, and the next Monday at 8:00 (a week on when today is Monday). */
export function schedulePresets(now: number, zone: string): { readonly tomorrowMorning: Schedule; readonly mondayMorning: Schedule } {
  const today = fieldsIn(now, zone);
  const untilMonday = ((8 - today.weekday) % 7) || 7;
  return {
    tomorrowMorning: { at: localAt(addDays(today, 1), PRESET_HOUR), timeZone: zone },
    mondayMorning: { at: localAt(addDays(today, untilMonday), PRESET_HOUR), timeZone: zone },
  };
}
