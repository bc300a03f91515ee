import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { MAIL_SCHEMA, type MailTable } from '../../../../src-worker/db/mail-schema';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { withRead, withWrite, type LocalStore } from '../../../../src-worker/db/store';
import { Logger, storageThreshold, type StorageEstimate } from '../../../../src-worker/log/logger';
import { maskEmails } from '../../../../src-worker/log/mask-emails';

const MB = 1024 * 1024;
const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 21, 9);

let store: LocalStore<MailTable>;
let estimate: StorageEstimate;
let logger: Logger;

beforeEach(async () => {
  vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  store = await new MemoryDatabases().open('7', MAIL_SCHEMA);
  estimate = { usage: 10 * MB, quota: 10_000 * MB };
  logger = new Logger({ estimateStorage: async () => estimate });
});
afterEach(() => {
  logger.deactivate();
  vi.useRealTimers();
});

const rows = () => withRead(store, ['Log'], (tx) => tx.getAll('Log', { index: 'timestamp' }));
const activate = async () => {
  logger.activate({ accountId: '7', open: async () => store });
  await vi.advanceTimersByTimeAsync(0);
};
async function seedRows(count: number, at: (i: number) => number) {
  await withWrite(store, ['Log'], async (tx) => {
    for (let i = 0; i < count; i++) await tx.put('Log', { id: `local-old-${String(i).padStart(4, '0')}`, timestamp: at(i), logs: `old ${i}`, type: 'Info' });
  });
}

describe('Logger', () => {
  test('buffers lines and writes them to the Log table every 30 s', async () => {
    await activate();
    logger.log('API', 'GET /delta 200');
    await vi.advanceTimersByTimeAsync(1);
    logger.log('Error', 'sync failed');
    await vi.advanceTimersByTimeAsync(29_000 - 1);
    expect(await rows()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    const written = await rows();
    expect(written.map(({ logs, type }) => ({ logs, type }))).toEqual([
      { logs: 'GET /delta 200', type: 'API' },
      { logs: 'sync failed', type: 'Error' },
    ]);
    expect(written[0]).toMatchObject({ timestamp: START, object: 'log', account_id: '7' });
    expect(String(written[0]?.id)).toMatch(/^local-/);
  });

  test('masks email addresses, keeping their first 2 characters', async () => {
    expect(maskEmails('login ann.lee@example.com and bo@x.org ok')).toBe('login an*** and bo*** ok');
    await activate();
    logger.log('Action', 'sent to carol@example.com');
    await logger.flush();
    expect((await rows())[0]?.logs).toBe('sent to ca***');
  });

  test('purges rows older than 5 days at start and every 24 h', async () => {
    await seedRows(2, (i) => START - 6 * DAY + i);
    await seedRows(1, () => START - 4.5 * DAY);
    await activate();
    expect((await rows()).map((row) => row.logs)).toEqual(['old 0']);
    // A day later the 4.5-day-old row is 5.5 days old.
    await vi.advanceTimersByTimeAsync(DAY);
    expect(await rows()).toEqual([]);
  });

  test('over the storage threshold the oldest half of the log rows is deleted', async () => {
    await seedRows(10, (i) => START - 60_000 + i);
    await activate();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(await rows()).toHaveLength(10);
    // Threshold: the smaller of 2048 MB and 20 % of the quota (here 200 MB).
    estimate = { usage: 201 * MB, quota: 1000 * MB };
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect((await rows()).map((row) => row.logs)).toEqual(['old 5', 'old 6', 'old 7', 'old 8', 'old 9']);
  });

  test('the threshold is min(2048 MB, 20 % of the quota)', () => {
    expect(storageThreshold(1000 * MB)).toBe(200 * MB);
    expect(storageThreshold(100_000 * MB)).toBe(2048 * MB);
    expect(storageThreshold(undefined)).toBe(2048 * MB);
  });

  test('inactive until activated, and again after deactivation: nothing is kept or written', async () => {
    logger.log('Info', 'before login');
    await activate();
    logger.log('Info', 'logged in');
    logger.deactivate();
    logger.log('Info', 'after logout');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await rows()).toEqual([]);
    expect(logger.active).toBe(false);
  });

  test('waits for the writer election before writing', async () => {
    let elect!: () => void;
    const gated = new Logger({ writerElected: new Promise<void>((resolve) => (elect = resolve)) });
    gated.activate({ accountId: '7', open: async () => store });
    gated.log('Info', 'queued');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await rows()).toEqual([]);
    elect();
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await rows()).map((row) => row.logs)).toEqual(['queued']);
    gated.deactivate();
  });

  test('lines stay buffered when a write fails', async () => {
    let fail = true;
    const flaky = new Logger({ onError: () => {} });
    flaky.activate({
      accountId: '7',
      open: async () => {
        if (fail) throw Object.assign(new Error('closed'), { name: 'DatabaseClosed' });
        return store;
      },
    });
    flaky.log('Info', 'kept');
    await vi.advanceTimersByTimeAsync(30_000);
    fail = false;
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await rows()).map((row) => row.logs)).toEqual(['kept']);
    flaky.deactivate();
  });
});
