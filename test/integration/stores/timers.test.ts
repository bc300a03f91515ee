/**
 * The thread_timers store on both engines (DESIGN §7): one live row per thread and kind,
 * a new time makes it waiting again, state changes only from the states named (the fence a
 * late job meets), the list soonest first, and the raised marks the summaries read — with
 * PostgreSQL's BIGINTs read back as numbers. The IMAP and job side is
 * test/integration/thread-timers.test.ts.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { SqlStore } from '../../../src-server/store/sql';
import { TimerStore, toThreadTimer } from '../../../src-server/timers/timer-store';
import { describeOnEngines } from '../support/engines';

describeOnEngines('TimerStore', (engine) => {
  let store: SqlStore;
  let timers: TimerStore;
  let alice: number;

  beforeEach(async () => {
    store = await engine.open();
    timers = new TimerStore(store);
    const row = await store.get<{ id: number }>(
      `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at) VALUES (?, '', 'localhost', 143, 'none', 'localhost', 25, 'none', ?, 0) RETURNING id`,
      ['alice@tern.test', Buffer.alloc(0)],
    );
    alice = Number(row!.id);
  });
  afterEach(() => store.close());

  const base = { threadId: 7, timeZone: 'Europe/Berlin', messageId: null, since: null, subject: 'Lunch' };

  test('insert, find the live one, reschedule, fire from waiting only, list and raised marks', async () => {
    const due = 1_900_000_000_000;
    const snooze = await timers.insert({ ...base, accountId: alice, kind: 'snooze', dueAt: due + 5, now: 1 });
    const remind = await timers.insert({ ...base, accountId: alice, kind: 'remind', dueAt: due, now: 1 });
    const follow = await timers.insert({ ...base, accountId: alice, threadId: 8, kind: 'followUp', dueAt: due + 9, messageId: 42, since: 1_800_000_000_000, now: 1 });
    expect((await timers.live(alice, 7, 'remind'))?.id).toBe(remind);
    expect(await timers.live(alice, 8, 'remind')).toBeNull();
    expect(toThreadTimer((await timers.get(alice, follow))!)).toEqual({
      id: String(follow), threadId: '8', kind: 'followUp', state: 'waiting', dueAt: due + 9, timeZone: 'Europe/Berlin', raisedAt: null, messageId: '42', subject: 'Lunch',
    });
    expect((await timers.get(alice, follow))!.since).toBe(1_800_000_000_000);
    expect((await timers.list(alice)).map((row) => row.id)).toEqual([remind, snooze, follow]);

    // Fired: only from waiting (a second run finds it raised and changes nothing).
    expect(await timers.transition(remind, ['waiting'], 'raised', 10, due)).toBe(true);
    expect(await timers.transition(remind, ['waiting'], 'raised', 11, due + 1)).toBe(false);
    expect(await timers.raisedMarks(alice, [7, 8, 9])).toEqual(new Map([[7, { timerId: String(remind), kind: 'remind', at: due }]]));
    // A new time: waiting again, the mark gone.
    await timers.reschedule(remind, { dueAt: due + 100, timeZone: 'UTC', now: 12 });
    expect(await timers.get(alice, remind)).toMatchObject({ state: 'waiting', dueAt: due + 100, timeZone: 'UTC', raisedAt: null });
    expect((await timers.raisedMarks(alice, [7])).size).toBe(0);
    // Cancelled and done rows leave the list and the live look-up.
    expect(await timers.transition(snooze, ['waiting', 'raised'], 'cancelled', 13)).toBe(true);
    expect(await timers.live(alice, 7, 'snooze')).toBeNull();
    expect((await timers.list(alice)).map((row) => row.id)).toEqual([follow, remind]); // remind moved after the follow-up
  });
});
