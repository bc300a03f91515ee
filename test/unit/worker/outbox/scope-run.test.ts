/**
 * runOnScope ("Select all N conversations"): the engine finds every thread of the list
 * itself — threads no tab ever loaded included — and records the command in batches, the
 * newest first, each optimistic like `run`; the gateway gets them all.
 */
import { afterEach, expect, test } from 'vitest';
import type { BulkAction } from '../../../../shared/api/actions';
import type { ScopeRunProgress } from '../../../../shared/worker-mail-api';
import { batchesOf, BATCH, FIRST_BATCH } from '../../../../src-worker/outbox/scope-run';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const T0 = Date.UTC(2026, 0, 1);

test('batches: a small first one (the rows on screen), then full ones', () => {
  const ids = Array.from({ length: 1234 }, (_, i) => String(i + 1));
  const batches = batchesOf(ids);
  const full = Math.floor((1234 - FIRST_BATCH) / BATCH);
  expect(batches.map((batch) => batch.length)).toEqual([FIRST_BATCH, ...Array<number>(full).fill(BATCH), 1234 - FIRST_BATCH - full * BATCH]);
  expect(batches.flat()).toEqual(ids);
  expect(batchesOf([])).toEqual([]);
});

test('archiving a whole folder: every thread, the unloaded ones too, in batches newest first; the list empties and the gateway hears all', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  const count = 730;
  const messages = Array.from({ length: count }, (_, i) => server.deliver({ subject: `Thread ${i}`, at: T0 + i * 60_000 }));
  server.deliver({ subject: 'Elsewhere', at: T0, folder: 'sent' });
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine();
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
  // 730 threads into fake-indexeddb: seconds on a loaded machine (it ends on the sync, not the clock;
  // the test's own limit is raised for the same reason).
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the sync', 15_000);

  const scope = { kind: 'folder' as const, accountId: server.accountId, folderId: server.folderOf('inbox').id };
  // A tab holds only the first 64 rows.
  let total = -1;
  const snapshot = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 64 } }, (patch) => void (total = patch.total));
  expect(snapshot.total).toBe(count);

  const progress: ScopeRunProgress[] = [];
  const run = await engine.commands.runOnScope({ scope, command: { kind: 'archive' } }, (step) => void progress.push(step));
  expect(run).toMatchObject({ done: count, total: count });
  expect(run.commandIds).toHaveLength(4);
  await waitFor(() => progress.length === 5, 'every progress report');
  expect(progress).toEqual([
    { done: 0, total: count },
    { done: 100, total: count },
    { done: 350, total: count },
    { done: 600, total: count },
    { done: count, total: count },
  ]);
  // Optimistic: the list is empty before the gateway answered.
  await waitFor(() => total === 0, 'the emptied list');

  await waitFor(() => server.requestsTo('/api/threads/bulk').length === 4, 'four bulk requests');
  const sent = server.requestsTo('/api/threads/bulk').map((request) => request.body as BulkAction);
  expect(sent.every((body) => body.action === 'archive')).toBe(true);
  const ids = sent.flatMap((body) => body.ids);
  expect(new Set(ids)).toEqual(new Set(messages.map((message) => message.threadId)));
  // Newest first: the first batch holds the newest hundred (the rows on screen).
  expect(sent[0]!.ids).toEqual(messages.slice(-100).reverse().map((message) => message.threadId));

  // Undo: the inverse of each batch puts every thread back.
  expect(run.undo.map((command) => command.kind)).toEqual(['restore', 'restore', 'restore', 'restore']);
  for (const command of run.undo) await engine.commands.run({ command });
  await waitFor(() => total === count, 'every thread back in the list');
}, 45_000);

test('a command the contract does not know is refused before anything is written', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine();
  engines.push(engine);
  const bad = engine.commands.runOnScope({ scope: { kind: 'folder', accountId: server.accountId, folderId: '1' }, command: { kind: 'explode' } as never }, () => undefined);
  await expect(bad).rejects.toMatchObject({ name: 'InvalidRequestData' });
});
