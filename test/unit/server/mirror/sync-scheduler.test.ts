import { describe, expect, test } from 'vitest';
import { Backoff } from '../../../../src-server/mirror/backoff';
import { PRIORITY, SyncScheduler } from '../../../../src-server/mirror/sync-scheduler';

describe('sync scheduler', () => {
  test('most urgent first, each task once, FIFO within a priority', () => {
    const s = new SyncScheduler();
    s.schedule({ kind: 'folder', path: 'Archive' }, PRIORITY.backfill);
    s.schedule({ kind: 'folder', path: 'Sent' }, PRIORITY.changedFolder);
    s.schedule({ kind: 'sweep' }, PRIORITY.sweep);
    s.schedule({ kind: 'folder', path: 'Archive' }, PRIORITY.changedFolder); // raised, not duplicated
    s.schedule({ kind: 'folder', path: 'INBOX' }, PRIORITY.inbox);
    const order: string[] = [];
    for (let task = s.take(); task; task = s.take()) {
      order.push(task.kind === 'sweep' ? 'sweep' : task.path);
      s.finish(task);
    }
    expect(order).toEqual(['INBOX', 'sweep', 'Archive', 'Sent']);
    expect(s.idle).toBe(true);
  });

  test('a request settles with a run that started after it, not with one already running', async () => {
    const s = new SyncScheduler();
    s.schedule({ kind: 'folder', path: 'INBOX' }, PRIORITY.inbox);
    const running = s.take()!;
    let settled = false;
    const request = s.request({ kind: 'folder', path: 'INBOX' }, PRIORITY.inbox).then(() => (settled = true));
    s.finish(running);
    await Promise.resolve();
    expect(settled).toBe(false);
    const next = s.take()!;
    s.finish(next);
    await request;
    expect(settled).toBe(true);
  });

  test('a failed run rejects its requests', async () => {
    const s = new SyncScheduler();
    const request = s.request({ kind: 'sweep' }, PRIORITY.sweep);
    s.finish(s.take()!, new Error('connection lost'));
    await expect(request).rejects.toThrow('connection lost');
  });

  test('backoff doubles to its cap and starts over after a reset', () => {
    const backoff = new Backoff({ baseMs: 500, capMs: 30_000, random: () => 0.5 });
    const delays = Array.from({ length: 9 }, () => backoff.next());
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    backoff.reset();
    expect(backoff.next()).toBe(500);
  });
});
