/**
 * A sign-in's first screen goes out alone (issue 13 point 2): the account's preferences,
 * address book and templates (MailEngineDeps.onAccountStarted) are asked for only once its
 * newest inbox threads are stored (primed, or a first delta page), so the folders, threads
 * and delta requests do not queue behind them at the gateway.
 */
import { afterEach, expect, test } from 'vitest';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

test('a new account loads its settings only after the first screen is stored', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  server.deliver({ subject: 'Newest', at: Date.UTC(2026, 0, 1) });
  // Neither the primed first screen nor the first delta page can land before the test says so.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  server.handlers.push(async ({ path }) => {
    if (path === '/api/threads' || path === '/api/delta') await held;
    return undefined;
  });
  const profile = new Profile([server]);
  await profile.addAccounts(); // signed in, nothing synced: the runtime primes the first screen
  const started: string[] = [];
  const engine = await profile.engine({ onAccountStarted: (accountId) => started.push(accountId) });
  engines.push(engine);

  await waitFor(() => server.requests.some((request) => request.path === '/api/threads'), 'the first screen asked for');
  await waitFor(() => server.requests.some((request) => request.path === '/api/delta'), 'the first page asked for');
  expect(engine.runtime('7')).toBeDefined();
  expect(started).toEqual([]);

  release();
  await waitFor(() => started.length > 0, 'the settings asked for after the first screen');
  expect(started).toEqual(['7']);
  const scope = { kind: 'folder' as const, accountId: '7', folderId: server.folderOf('inbox').id };
  const snapshot = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 5 } }, () => undefined);
  expect(snapshot.rows.map((row) => row.subject)).toContain('Newest');
});
