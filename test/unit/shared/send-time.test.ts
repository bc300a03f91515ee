import { describe, expect, test } from 'vitest';
import { checkSchedule, schedulePresets, utcToLocal, zonedToUtc } from '../../../shared/send-time';
import { withDate } from '../../../src-server/outbox/redate';

describe('scheduled times in a zone', () => {
  test('a wall-clock time becomes its UTC instant, and back', () => {
    expect(new Date(zonedToUtc('2027-07-01T08:00', 'Europe/Berlin')!).toISOString()).toBe('2027-07-01T06:00:00.000Z');
    expect(new Date(zonedToUtc('2027-01-15T08:00', 'Europe/Berlin')!).toISOString()).toBe('2027-01-15T07:00:00.000Z');
    expect(new Date(zonedToUtc('2027-01-15T08:00', 'America/New_York')!).toISOString()).toBe('2027-01-15T13:00:00.000Z');
    expect(utcToLocal(Date.UTC(2027, 6, 1, 6, 0), 'Europe/Berlin')).toBe('2027-07-01T08:00');
  });

  test('a time skipped by the clocks going forward does not exist; a repeated one is its first occurrence', () => {
    expect(zonedToUtc('2027-03-28T02:30', 'Europe/Berlin')).toBeNull();
    expect(zonedToUtc('2027-03-14T02:30', 'America/New_York')).toBeNull();
    expect(zonedToUtc('2027-02-30T08:00', 'UTC')).toBeNull();
    // 2:30 on 31 Oct 2027 happens twice in Berlin: first at 00:30 UTC (summer time).
    expect(new Date(zonedToUtc('2027-10-31T02:30', 'Europe/Berlin')!).toISOString()).toBe('2027-10-31T00:30:00.000Z');
  });

  test('past, more than a year ahead and non-existent times are refused with their catalogue errors', () => {
    const now = Date.UTC(2027, 2, 1, 12, 0);
    expect(checkSchedule({ at: '2027-03-01T12:00', timeZone: 'UTC' }, now)).toEqual({ ok: false, error: 'ScheduleTimeInPast' });
    expect(checkSchedule({ at: '2028-03-02T12:00', timeZone: 'UTC' }, now)).toEqual({ ok: false, error: 'ScheduleTimeTooFar' });
    expect(checkSchedule({ at: '2027-03-28T02:30', timeZone: 'Europe/Berlin' }, now)).toEqual({ ok: false, error: 'ScheduleTimeNonexistent' });
    expect(checkSchedule({ at: '2027-03-28T03:30', timeZone: 'Europe/Berlin' }, now)).toEqual({ ok: true, sendAt: Date.UTC(2027, 2, 28, 1, 30) });
  });

  test('presets: tomorrow at 8:00 and the next Monday at 8:00, in the zone', () => {
    // Sunday 29 Nov 2026, 23:30 in Berlin (22:30 UTC).
    const sunday = Date.UTC(2026, 10, 29, 22, 30);
    expect(schedulePresets(sunday, 'Europe/Berlin')).toEqual({
      tomorrowMorning: { at: '2026-11-30T08:00', timeZone: 'Europe/Berlin' },
      mondayMorning: { at: '2026-11-30T08:00', timeZone: 'Europe/Berlin' },
    });
    // The same instant is already Monday in Tokyo: Monday's preset is a week on.
    expect(schedulePresets(sunday, 'Asia/Tokyo').mondayMorning.at).toBe('2026-12-07T08:00');
    expect(schedulePresets(Date.UTC(2026, 11, 31, 12), 'UTC').tomorrowMorning.at).toBe('2027-01-01T08:00');
  });
});

test('the Date header of a stored message is set to when it leaves, the rest byte for byte', () => {
  const raw = Buffer.from('From: a@b.c\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\nSubject: x\r\n\r\nDate: in the body stays\r\n');
  const out = withDate(raw, Date.UTC(2027, 0, 2, 3, 4, 5)).toString('latin1');
  expect(out).toBe('From: a@b.c\r\nDate: Sat, 02 Jan 2027 03:04:05 +0000\r\nSubject: x\r\n\r\nDate: in the body stays\r\n');
});
