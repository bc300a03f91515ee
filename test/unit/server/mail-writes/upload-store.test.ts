import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_ATTACHMENT_BYTES } from '../../../../shared/api/compose';
import { TernError } from '../../../../shared/errors';
import { UploadStore } from '../../../../src-server/drafts/upload-store';
import { openDatabase, type Db } from '../../../../src-server/store/database';
import { SqliteStore } from '../../../../src-server/store/sqlite-store';

let dir: string;
let db: Db;
let clock: number;
let uploads: UploadStore;
let accountId: number;

/** A stream of `size` bytes in 64 KB chunks, without holding them all. */
function bytes(size: number): Readable {
  let left = size;
  return new Readable({
    read() {
      const n = Math.min(left, 64 * 1024);
      left -= n;
      this.push(n > 0 ? Buffer.alloc(n, 0x61) : null);
    },
  });
}

const errorOf = async (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as TernError);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-uploads-'));
  db = openDatabase(dir, ':memory:');
  clock = 10_000_000;
  uploads = new UploadStore({ store: new SqliteStore(db, ':memory:'), dir: join(dir, 'uploads'), now: () => clock });
  accountId = Number(
    db
      .prepare(
        `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
         VALUES ('alice@tern.test', '', 'h', 1, 'none', 'h', 2, 'none', x'', 0)`,
      )
      .run().lastInsertRowid,
  );
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const receive = (size: number, remaining = Number.MAX_SAFE_INTEGER) =>
  uploads.receive({ accountId, filename: 'a.pdf', contentType: 'application/pdf', stream: bytes(size), remaining });

describe('upload limits', () => {
  test('a file of exactly 25 MB is stored under a random name; one byte more is InvalidFileSize and leaves nothing behind', async () => {
    const ok = await receive(MAX_ATTACHMENT_BYTES);
    expect(ok.size).toBe(MAX_ATTACHMENT_BYTES);
    expect(ok.id).toMatch(/^[a-f0-9]{32}$/);
    const tooBig = await errorOf(receive(MAX_ATTACHMENT_BYTES + 1));
    expect(tooBig?.name).toBe('InvalidFileSize');
    expect(await readdir(join(dir, 'uploads', String(accountId)))).toEqual([ok.id]);
  });

  test('an empty file is InvalidFileSize', async () => {
    expect((await errorOf(receive(0)))?.name).toBe('InvalidFileSize');
  });

  test('the request budget caps the total', async () => {
    expect((await errorOf(receive(1000, 999)))?.name).toBe('InvalidFileSize');
    expect((await receive(1000, 1000)).size).toBe(1000);
  });

  test('uploads belong to their account', async () => {
    const mine = await receive(10);
    expect(await uploads.owned(accountId, [mine.id])).toHaveLength(1);
    await expect(uploads.owned(accountId + 1, [mine.id])).rejects.toThrow(expect.objectContaining({ name: 'FileNotFound' }));
  });

  test('the 24 h sweep removes old uploads but keeps those an open draft holds', async () => {
    const loose = await receive(10);
    const held = await receive(10);
    const draftId = Number(
      db
        .prepare(`INSERT INTO drafts (account_id, version, state, message_id_header, fields_json, created_at, updated_at) VALUES (?, 1, 'open', '<d@x>', '{}', 0, 0)`)
        .run(accountId).lastInsertRowid,
    );
    db.prepare('INSERT INTO draft_attachments (draft_id, upload_id, position) VALUES (?, ?, 0)').run(draftId, held.id);
    clock += 23 * 3_600_000;
    expect(await uploads.sweep(24 * 3_600_000)).toBe(0);
    clock += 2 * 3_600_000;
    expect(await uploads.sweep(24 * 3_600_000)).toBe(1);
    expect((await uploads.existing(accountId, [loose.id, held.id])).map((upload) => upload.id)).toEqual([held.id]);
    expect(await readdir(join(dir, 'uploads', String(accountId)))).toEqual([held.id]);
  });
});
