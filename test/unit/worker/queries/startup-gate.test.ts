import { afterEach, expect, test } from 'vitest';
import { createStartupGate } from '../../../../src-worker/queries/startup-gate';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

/** A profile whose account has synced once (its cache is filled), as a reload finds it. */
async function cachedProfile() {
  const server = new FakeMailServer();
  server.standardFolders();
  for (let i = 0; i < 12; i++) server.deliver({ subject: `Thread ${i}`, at: T0 + i * HOUR });
  const profile = new Profile([server]);
  await profile.addAccounts();
  const first = await profile.engine();
  const runtime = await waitFor(() => first.runtime('7'), 'the first runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the first sync');
  await waitFor(async () => ((await profile.repository.get('7'))?.appliedTransactionId ?? 0) > 0, 'the saved cursor');
  first.close();
  return { server, profile };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a restarted engine answers the first list before its sync and search index start', async () => {
  const { server, profile } = await cachedProfile();
  const engine = await profile.engine({ firstScreenWaitMs: 60_000 });
  engines.push(engine);
  await sleep(50);
  // Held back: no runtime (no delta, no websocket), no search index being read.
  expect(engine.runtime('7')).toBeUndefined();
  expect(engine.search.size('7')).toBeNull();
  expect(engine.startup.isOpen).toBe(false);

  const scope = { kind: 'folder' as const, accountId: '7', folderId: server.folderOf('inbox').id };
  const snapshot = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 5 } }, () => undefined);
  expect(snapshot.rows.map((row) => row.subject)).toEqual(['Thread 11', 'Thread 10', 'Thread 9', 'Thread 8', 'Thread 7']);
  expect(engine.startup.reason).toBe('first list');
  // Then the deferred work runs: the sync, and after it the search index build.
  const runtime = await waitFor(() => engine.runtime('7'), 'the runtime after the first list');
  await waitFor(() => runtime.sync.state.phase === 'idle', 'the sync after the first list');
  await waitFor(() => engine.search.size('7') === 12, 'the search index after the sync');
});

test('with nothing cached (a login) the engine does not wait for a list', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  server.deliver({ subject: 'Hello', at: T0 });
  const profile = new Profile([server]);
  await profile.addAccounts(); // stored, never synced: appliedTransactionId 0
  const engine = await profile.engine({ firstScreenWaitMs: 60_000 });
  engines.push(engine);
  await waitFor(() => engine.runtime('7'), 'the runtime of the new account');
  expect(engine.startup.reason).toBe('nothing cached');
});

test('the gate opens after its wait when no tab asks for a list, and only once', () => {
  const timers: { run: () => void; ms: number }[] = [];
  const gate = createStartupGate({ waitMs: 1500, setTimer: (run, ms) => void timers.push({ run, ms }) });
  expect(gate.isOpen).toBe(false);
  expect(timers.map((timer) => timer.ms)).toEqual([1500]);
  timers[0]!.run();
  expect(gate.reason).toBe('timeout');
  gate.open('first list');
  expect(gate.reason).toBe('timeout');
  expect(createStartupGate({ waitMs: 0 }).reason).toBe('no wait');
});
