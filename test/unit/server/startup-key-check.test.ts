import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src-server/config';
import { closeContext, createContext } from '../../../src-server/context';

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
async function storeWithOneAccount(env: Record<string, string> = {}): Promise<void> {
  const ctx = await createContext(config(env));
  await ctx.accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'Alice-pass-1!' });
  await closeContext(ctx);
}

describe('start-up key check', () => {
  test('a missing key file with sealed passwords in the store stops start-up, naming the file; no new key is made', async () => {
    await storeWithOneAccount();
    const keyFile = join(dataDir, 'secret.key');
    await rm(keyFile);
    await expect(createContext(config())).rejects.toThrow(new RegExp(`key file ${keyFile} is missing[\\s\\S]*Restore secret.key[\\s\\S]*TERN_SECRET_KEY`));
    expect(existsSync(keyFile)).toBe(false);
  });

  test('a key file that cannot open the stored passwords stops start-up', async () => {
    await storeWithOneAccount();
    const keyFile = join(dataDir, 'secret.key');
    await writeFile(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
    await expect(createContext(config())).rejects.toThrow(new RegExp(`key from ${keyFile} cannot open the mail passwords[\\s\\S]*Put back the key`));
  });

  test('a TERN_SECRET_KEY other than the one the store was written with stops start-up, naming the variable', async () => {
    await storeWithOneAccount({ TERN_SECRET_KEY: randomBytes(32).toString('hex') });
    await expect(createContext(config({ TERN_SECRET_KEY: randomBytes(32).toString('hex') }))).rejects.toThrow(/key from TERN_SECRET_KEY cannot open/);
  });

  test('the right key starts, and an empty store still gets a fresh key file', async () => {
    await storeWithOneAccount();
    const ctx = await createContext(config());
    expect(await ctx.accounts.password((await ctx.accounts.all())[0]!.id)).toBe('Alice-pass-1!');
    await closeContext(ctx);
  });
});

describe('file modes', () => {
  test('the database, its -wal and -shm and the key file are 0600 in a data dir that already existed', async () => {
    const existing = join(dataDir, 'existing');
    await mkdir(existing, { mode: 0o755 });
    await chmod(existing, 0o755);
    const previous = process.umask(0o022);
    try {
      const ctx = await createContext(loadConfig({ TERN_DATA_DIR: existing }));
      await ctx.accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'Alice-pass-1!' });
      for (const file of ['tern.sqlite', 'tern.sqlite-wal', 'tern.sqlite-shm', 'secret.key']) {
        expect([file, (await stat(join(existing, file))).mode & 0o777]).toEqual([file, 0o600]);
      }
      await closeContext(ctx);
    } finally {
      process.umask(previous);
    }
  });

  test('a database file a previous version left 0644 is narrowed to 0600', async () => {
    await storeWithOneAccount();
    await chmod(join(dataDir, 'tern.sqlite'), 0o644);
    await closeContext(await createContext(config()));
    expect((await stat(join(dataDir, 'tern.sqlite'))).mode & 0o777).toBe(0o600);
  });
});
