import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AccountStore } from '../../../src-server/accounts/account-store';
import { SessionStore } from '../../../src-server/accounts/session-store';
import { SecretBox } from '../../../src-server/crypto/secret-box';
import { openStore } from '../../../src-server/store/open-store';
import type { SqlStore } from '../../../src-server/store/sql';

const PASSWORD = 'Correct-Horse-9!';
const settings = { host: '127.0.0.1', port: 1143, security: 'none' as const };

let dataDir: string;
let store: SqlStore;
let accounts: AccountStore;
let sessions: SessionStore;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tern-store-'));
  store = await openStore({ dataDir, databaseFile: 'tern.sqlite' });
  accounts = new AccountStore(store, SecretBox.load({ dataDir }));
  sessions = new SessionStore(store);
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Every byte the database keeps on disk: the main file plus its WAL and shared-memory files. */
async function databaseBytes(): Promise<Buffer> {
  const files = (await readdir(dataDir)).filter((name) => name.startsWith('tern.sqlite'));
  expect(files).toContain('tern.sqlite-wal');
  return Buffer.concat(await Promise.all(files.map((name) => readFile(join(dataDir, name)))));
}

const contains = (bytes: Buffer, text: string) =>
  bytes.includes(Buffer.from(text, 'utf8')) || bytes.includes(Buffer.from(text, 'utf16le'));

describe('AccountStore', () => {
  test('the database files hold no password, yet the password can be recovered', async () => {
    const account = await accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: settings, smtp: settings, password: PASSWORD });
    await accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: settings, smtp: settings, password: `${PASSWORD}-new` });
    const bytes = await databaseBytes();
    expect(contains(bytes, 'alice@tern.test')).toBe(true); // proves the dump sees the rows at all
    expect(contains(bytes, PASSWORD)).toBe(false);
    expect(await accounts.password(account.id)).toBe(`${PASSWORD}-new`);
  });

  test('save refreshes an existing account instead of adding one', async () => {
    const first = await accounts.save({ email: 'bob@kite.test', name: 'Bob', imap: settings, smtp: settings, password: 'a' });
    const second = await accounts.save({ email: 'bob@kite.test', name: 'Bobby', imap: { ...settings, port: 993 }, smtp: settings, password: 'b' });
    expect(second.id).toBe(first.id);
    expect(await accounts.all()).toHaveLength(1);
    expect(await accounts.get(first.id)).toMatchObject({ name: 'Bobby', imap: { port: 993 } });
  });
});

describe('SessionStore', () => {
  test('a token verifies; only its hash is stored', async () => {
    const account = await accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: settings, smtp: settings, password: PASSWORD });
    const token = await sessions.create(account.id);
    expect(await sessions.verify(token)).toMatchObject({ accountId: account.id });
    expect(await sessions.create(account.id)).not.toBe(token);
    const stored = await store.all<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(stored.map((row) => row.token_hash)).not.toContain(token);
    expect(contains(await databaseBytes(), token)).toBe(false);
  });

  test('an ended token is refused with InvalidToken; other sessions live on', async () => {
    const account = await accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: settings, smtp: settings, password: PASSWORD });
    const ended: number[] = [];
    sessions.on('ended', (session) => ended.push(session.accountId));
    const token = await sessions.create(account.id);
    const other = await sessions.create(account.id);
    await sessions.end(await sessions.verify(token));
    await expect(sessions.verify(token)).rejects.toThrow(expect.objectContaining({ name: 'InvalidToken', status: 401 }));
    expect((await sessions.verify(other)).accountId).toBe(account.id);
    expect(ended).toEqual([account.id]);
  });

  test('a missing or made-up token is refused', async () => {
    await expect(sessions.verify(undefined)).rejects.toThrow(expect.objectContaining({ name: 'TokenParamMissing' }));
    await expect(sessions.verify('made-up')).rejects.toThrow(expect.objectContaining({ name: 'InvalidToken' }));
    await expect(sessions.verify('x'.repeat(500))).rejects.toThrow(expect.objectContaining({ name: 'InvalidToken' }));
  });
});
