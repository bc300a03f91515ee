import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src-server/config';
import { createContext } from '../../../src-server/context';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tern-startup-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const server = { host: '127.0.0.1', port: 1143, security: 'none' as const };
const config = (env: Record<string, string> = {}) => loadConfig({ TERN_DATA_DIR: dataDir, ...env });

/** A data dir as a previous run leaves it: a store with one account whose password is sealed. */
function storeWithOneAccount(env: Record<string, string> = {}): void {
  const ctx = createContext(config(env));
  ctx.accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'Alice-pass-1!' });
  ctx.db.close();
}

describe('start-up key check', () => {
  test('a missing key file with sealed passwords in the store stops start-up, naming the file; no new key is made', async () => {
    storeWithOneAccount();
    const keyFile = join(dataDir, 'secret.key');
    await rm(keyFile);
    expect(() => createContext(config())).toThrow(new RegExp(`key file ${keyFile} is missing[\\s\\S]*Restore secret.key[\\s\\S]*TERN_SECRET_KEY`));
    expect(existsSync(keyFile)).toBe(false);
  });

  test('a key file that cannot open the stored passwords stops start-up', async () => {
    storeWithOneAccount();
    const keyFile = join(dataDir, 'secret.key');
    await writeFile(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
    expect(() => createContext(config())).toThrow(new RegExp(`key from ${keyFile} cannot open the mail passwords[\\s\\S]*Put back the key`));
  });

  test('a TERN_SECRET_KEY other than the one the store was written with stops start-up, naming the variable', () => {
    storeWithOneAccount({ TERN_SECRET_KEY: randomBytes(32).toString('hex') });
    expect(() => createContext(config({ TERN_SECRET_KEY: randomBytes(32).toString('hex') }))).toThrow(/key from TERN_SECRET_KEY cannot open/);
  });

  test('the right key starts, and an empty store still gets a fresh key file', () => {
    storeWithOneAccount();
    const ctx = createContext(config());
    expect(ctx.accounts.password(ctx.accounts.all()[0]!.id)).toBe('Alice-pass-1!');
    ctx.db.close();
  });
});

describe('file modes', () => {
  test('the database, its -wal and -shm and the key file are 0600 in a data dir that already existed', async () => {
    const existing = join(dataDir, 'existing');
    await mkdir(existing, { mode: 0o755 });
    await chmod(existing, 0o755);
    const previous = process.umask(0o022);
    try {
      const ctx = createContext(loadConfig({ TERN_DATA_DIR: existing }));
      ctx.accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'Alice-pass-1!' });
      for (const file of ['tern.sqlite', 'tern.sqlite-wal', 'tern.sqlite-shm', 'secret.key']) {
        expect([file, (await stat(join(existing, file))).mode & 0o777]).toEqual([file, 0o600]);
      }
      ctx.db.close();
    } finally {
      process.umask(previous);
    }
  });

  test('a database file a previous version left 0644 is narrowed to 0600', async () => {
    storeWithOneAccount();
    await chmod(join(dataDir, 'tern.sqlite'), 0o644);
    createContext(config()).db.close();
    expect((await stat(join(dataDir, 'tern.sqlite'))).mode & 0o777).toBe(0o600);
  });
});
