// The built gateway as a real process (dist/server/gateway.mjs, built for this file): what
// it refuses at start-up, the modes of the files it keeps, and what it logs on stdout. On the
// integration-postgres run each data dir's gateway runs on a PostgreSQL database of its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src-server/config';
import { closeContext, createContext } from '../../src-server/context';
import { findFreePorts } from '../harness/ports';
import { databaseUnderTest, gatewayDatabaseEnv } from './support/database-choice';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repository (ignored by git) so the bundle's external packages resolve from node_modules.
const buildDir = join(root, '.tern', `startup-test-${process.pid}`);
const gatewayBundle = join(buildDir, 'dist', 'server', 'gateway.mjs');
let dir: string;

beforeAll(async () => {
  const build = spawnSync(process.execPath, ['build.mjs', '--no-install', `--out=${buildDir}`], { cwd: root, encoding: 'utf8' });
  if (!existsSync(gatewayBundle)) throw new Error(`The gateway did not build:\n${build.stdout}\n${build.stderr}`);
  dir = await mkdtemp(join(tmpdir(), 'tern-startup-'));
});
/** Gateways still running: a failed or timed-out test must not leave one behind. */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(buildDir, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Each data dir's database (database-choice.ts): nothing on SQLite (its file in the data
 * dir); on the integration-postgres run a database of its own, which every gateway run over
 * that data dir is given too.
 */
const databases = new Map<string, Record<string, string>>();
async function databaseFor(dataDir: string): Promise<Record<string, string>> {
  const known = databases.get(dataDir);
  if (known) return known;
  const env = await gatewayDatabaseEnv(`startup_${dataDir.split('/').at(-1)!}`);
  databases.set(dataDir, env);
  return env;
}

/** Where the key check says the sealed passwords are: the SQLite file, or the database's URL without a password. */
const storedIn = (dataDir: string) => databases.get(dataDir)?.TERN_DATABASE_URL ?? join(dataDir, 'tern.sqlite');

/** Starts the gateway on a free port; `until` decides from its stdout when to stop it (SIGTERM), or it runs until it exits. */
async function runGateway(env: Record<string, string>, until?: (stdout: string) => Promise<void> | null): Promise<Run> {
  const [port] = await findFreePorts(1);
  const database = env.TERN_DATA_DIR ? await databaseFor(env.TERN_DATA_DIR) : {};
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [gatewayBundle], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', TERN_HOST: '127.0.0.1', TERN_PORT: String(port), TERN_PUBLIC_DIR: join(buildDir, 'public'), ...database, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    let acting = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (acting || !until) return;
      const action = until(stdout);
      if (!action) return;
      acting = true;
      action.then(() => child.kill('SIGTERM'), (error: unknown) => {
        child.kill('SIGKILL');
        reject(error);
      });
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

const listeningUrl = (stdout: string) => /Tern gateway listening on (http:\/\/\S+)/.exec(stdout)?.[1];
/** For a gateway that should refuse to start: one that listens after all is stopped at once (and the test fails on its exit code). */
const stopIfListening = (stdout: string) => (listeningUrl(stdout) ? Promise.resolve() : null);

/**
 * A data dir as an earlier run left it: a store holding one sealed mail password, and a live
 * session (so the gateway starts its mirror) whose IMAP server is a closed port.
 */
async function dataDirWithAccount(name: string, env: Record<string, string> = {}): Promise<string> {
  const dataDir = join(dir, name);
  const ctx = await createContext(loadConfig({ TERN_DATA_DIR: dataDir, ...(await databaseFor(dataDir)), ...env }));
  const [closedPort] = await findFreePorts(1);
  const server = { host: '127.0.0.1', port: closedPort!, security: 'none' as const };
  const account = await ctx.accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'Alice-pass-1!' });
  await ctx.sessions.create(account.id);
  await closeContext(ctx);
  return dataDir;
}

describe('start-up refusals', () => {
  test('a missing key file while the store holds sealed passwords: exit 1, a message naming the file and what to do, no new key', async () => {
    const dataDir = await dataDirWithAccount('missing-key');
    await rm(join(dataDir, 'secret.key'));
    const run = await runGateway({ TERN_DATA_DIR: dataDir }, stopIfListening);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The key file ${join(dataDir, 'secret.key')} is missing, but the store holds 1 mail password(s) sealed with it.`);
    expect(run.stderr).toMatch(/Restore secret\.key from a backup/);
    expect(run.stdout).not.toMatch(/listening/);
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(false);
  });

  test('a key file that cannot open the stored passwords: exit 1 with a clear message', async () => {
    const dataDir = await dataDirWithAccount('wrong-key');
    await writeFile(join(dataDir, 'secret.key'), randomBytes(32).toString('hex'), { mode: 0o600 });
    const run = await runGateway({ TERN_DATA_DIR: dataDir }, stopIfListening);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The key from ${join(dataDir, 'secret.key')} cannot open the mail passwords stored in ${storedIn(dataDir)}`);
    expect(run.stdout).not.toMatch(/listening/);
  });

  test('a TERN_SECRET_KEY other than the store’s: exit 1 naming the variable', async () => {
    const dataDir = await dataDirWithAccount('wrong-env-key', { TERN_SECRET_KEY: randomBytes(32).toString('hex') });
    const run = await runGateway({ TERN_DATA_DIR: dataDir, TERN_SECRET_KEY: randomBytes(32).toString('hex') }, stopIfListening);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The key from TERN_SECRET_KEY cannot open the mail passwords');
  });

  test('a TERN_REDIS_URL nobody answers: exit 1 naming the variable and the server, not its password', async () => {
    const [closedPort] = await findFreePorts(1);
    const run = await runGateway({ TERN_DATA_DIR: join(dir, 'no-redis'), TERN_REDIS_URL: `redis://:hunter2@127.0.0.1:${closedPort}` }, stopIfListening);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`TERN_REDIS_URL: cannot reach Redis at redis://127.0.0.1:${closedPort} (connect ECONNREFUSED`);
    expect(run.stdout + run.stderr).not.toContain('hunter2');
  });
});

describe('a gateway that starts', () => {
  test('its files are 0600 in a data dir that already existed, and it logs each request as one JSON line with its requestId', async () => {
    const dataDir = join(dir, 'existing');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    const seen: { health?: string; missing?: string } = {};
    const run = await runGateway({ TERN_DATA_DIR: dataDir }, (stdout) => {
      const url = listeningUrl(stdout);
      if (!url) return null;
      return (async () => {
        const health = await fetch(`${url}/api/health`, { headers: { authorization: 'Bearer secret-token-123' } });
        seen.health = health.headers.get('x-request-id') ?? undefined;
        const missing = await fetch(`${url}/api/nothing/here?st=secret-token-123`);
        expect(await missing.json()).toEqual({ error: 'NoSuchMethod', description: 'There is no such operation.', requestId: missing.headers.get('x-request-id') });
        seen.missing = missing.headers.get('x-request-id') ?? undefined;
        const sqliteFiles = databaseUnderTest() === 'sqlite' ? ['tern.sqlite', 'tern.sqlite-wal', 'tern.sqlite-shm'] : [];
        for (const file of [...sqliteFiles, 'secret.key', 'api.log']) {
          expect([file, (await stat(join(dataDir, file))).mode & 0o777]).toEqual([file, 0o600]);
        }
      })();
    });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.requestId === seen.health)).toMatchObject({ msg: 'request', method: 'GET', route: '/api/health', status: 200 });
    expect(lines.find((line) => line.requestId === seen.missing)).toMatchObject({ msg: 'request', method: 'GET', route: null, status: 404 });
    expect(run.stdout).not.toContain('secret-token-123');
  });

  test('an error outside any request (the mirror cannot reach its IMAP server) is logged at error level with its stack, and no password', async () => {
    const dataDir = await dataDirWithAccount('mirror-error');
    const mirrorError = (stdout: string) =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { stack?: string } })
        .find((line) => line.msg === 'mirror of account 1');
    const run = await runGateway({ TERN_DATA_DIR: dataDir }, (stdout) => (mirrorError(stdout) ? Promise.resolve() : null));
    const line = mirrorError(run.stdout);
    expect(line?.level).toBe(50);
    expect(line?.err?.stack).toMatch(/\n\s+at /);
    expect(run.stdout + run.stderr).not.toContain('Alice-pass-1!');
  });
});
