/**
 * `npm run plan` on the database TERN_DATABASE_URL names (a real PostgreSQL from the
 * harness), as an operator of a gateway on PostgreSQL runs it. The SQLite data dir is
 * covered by test/unit/server/plans/plan-command.test.ts beside a live gateway.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runPlanCommand } from '../../src-server/cli/plan-command';
import { PlanStore } from '../../src-server/plans/plan-store';
import { openStore } from '../../src-server/store/open-store';
import { startPostgres, type PostgresServer } from '../harness/postgres-server';

let dir: string;
let postgres: PostgresServer;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-plan-pg-'));
  postgres = await startPostgres({ dir: join(dir, 'postgres') });
  url = await postgres.createDatabase('tern_plan_command');
  // The gateway's database as a first login leaves it: migrated, one account.
  const store = await openStore({ databaseUrl: url, dataDir: dir, databaseFile: 'unused' });
  await store.run(
    `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
     VALUES ('alice@tern.test', 'Alice', 'h', 1, 'none', 'h', 2, 'none', ?, 0)`,
    [Buffer.from('sealed')],
  );
  await new PlanStore(store).put((await store.get<{ id: number }>('SELECT id FROM accounts'))!.id, 'free', 1);
  await store.close();
});
afterAll(async () => {
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

const run = async (argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  // No data dir holds a SQLite file here: the command must go to the URL, not look for one.
  // A password in the URL (the harness's server trusts loopback, so it is not checked) must not be printed.
  const withPassword = url.replace('postgres://tern@', 'postgres://tern:Sekrit-9@');
  const code = await runPlanCommand({ argv, env: { TERN_DATABASE_URL: withPassword, TERN_DATA_DIR: join(dir, 'no-data-dir') }, out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

test('with TERN_DATABASE_URL it lists and shows plans from PostgreSQL, naming the database without its password', async () => {
  const listing = await run([]);
  expect(listing).toMatchObject({ code: 0, err: '' });
  expect(listing.out).toMatch(/^postgres:\/\/tern@127\.0\.0\.1:\d+\/tern_plan_command:\n\s+alice@tern\.test\s+free$/);
  expect(await run(['--email', 'Alice@Tern.test'])).toEqual({ code: 0, out: 'alice@tern.test: free (features: none)', err: '' });
  const unknown = await run(['--email', 'carol@tern.test']);
  expect(unknown.err).toContain('No account carol@tern.test in postgres://tern@');
  expect(unknown.err).not.toContain('Sekrit');
});

test('setting a plan there writes it with its log entry: the next delta of the account carries it', async () => {
  const store = await openStore({ databaseUrl: url, dataDir: dir, databaseFile: 'unused' });
  try {
    const before = (await store.get<{ latest: number }>('SELECT latest_txn_id AS latest FROM accounts'))!.latest;
    const set = await run(['--email', 'alice@tern.test', '--plan', 'paid']);
    expect(set).toMatchObject({ code: 0, err: '' });
    expect(set.out).toContain('alice@tern.test: paid');
    expect((await run(['--email', 'alice@tern.test'])).out).toMatch(/^alice@tern\.test: paid/);
    const after = (await store.get<{ latest: number }>('SELECT latest_txn_id AS latest FROM accounts'))!.latest;
    expect(after).toBe(before + 1);
    expect(await store.get('SELECT object FROM txlog WHERE id = ?', [after])).toEqual({ object: 'plan' });
  } finally {
    await store.close();
  }
});
