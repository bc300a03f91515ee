import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_ATTACHMENT_BYTES, type UploadedFile } from '../../shared/api/compose';
import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';

export interface UploadRecord {
  readonly id: string;
  readonly accountId: number;
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  readonly createdAt: number;
}

export interface UploadStoreDeps {
  readonly store: SqlStore;
  /** `<dataDir>/uploads`: one private directory per account below it. */
  readonly dir: string;
  readonly now?: () => number;
}

export const toUploadedFile = (record: UploadRecord): UploadedFile => ({
  id: record.id,
  filename: record.filename,
  size: record.size,
  contentType: record.contentType,
});

const SELECT = 'SELECT id, account_id AS "accountId", filename, content_type AS "contentType", size, created_at AS "createdAt" FROM uploads';
/** Uploads a draft still needs are kept, whatever their age. */
const UNREFERENCED = `NOT EXISTS (SELECT 1 FROM draft_attachments a JOIN drafts d ON d.id = a.draft_id
  WHERE a.upload_id = uploads.id AND d.state IN ('open', 'sending'))`;
const INSERT = 'INSERT INTO uploads (id, account_id, filename, content_type, size, created_at) VALUES (?, ?, ?, ?, ?, ?)';
const OWN = `${SELECT} WHERE id = ? AND account_id = ?`;
const OWN_UNREFERENCED = `${SELECT} WHERE id = ? AND account_id = ? AND ${UNREFERENCED}`;
const STALE = `${SELECT} WHERE created_at < ? AND ${UNREFERENCED}`;
const DELETE = 'DELETE FROM uploads WHERE id = ?';

/** Counts bytes through a stream and stops it past `limit` (the per-file and per-request budget). */
function byteLimit(limit: number, counted: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > limit) done(new TernError('InvalidFileSize', { detail: { limitBytes: limit } }));
      else done(null, chunk);
    },
  });
}

/**
 * Attachments uploaded for a message that is still being written. Each is a file named by
 * 128 random bits under the account's directory plus a row saying whose it is; nothing
 * of the client's file name reaches the file system. They go after the message is sent,
 * or after 24 hours unless a draft still holds them.
 */
export class UploadStore {
  private readonly now: () => number;

  constructor(private readonly deps: UploadStoreDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Streams one file to disk. `remaining` is what the request may still bring in (its
   * total is capped too); past it, or past 25 MB, or empty → InvalidFileSize.
   */
  async receive(params: { accountId: number; filename: string; contentType: string; stream: Readable; remaining: number }): Promise<UploadRecord> {
    const id = randomBytes(16).toString('hex');
    const dir = join(this.deps.dir, String(params.accountId));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, id);
    const counted = { bytes: 0 };
    try {
      await pipeline(params.stream, byteLimit(Math.min(MAX_ATTACHMENT_BYTES, params.remaining), counted), createWriteStream(path, { mode: 0o600 }));
      if (counted.bytes === 0) throw new TernError('InvalidFileSize', { detail: { reason: 'empty' } });
    } catch (error) {
      await unlink(path).catch(() => undefined);
      // busboy's own per-file limit (the multipart plugin's FST_REQ_FILE_TOO_LARGE) means the same thing.
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new TernError('InvalidFileSize', { detail: { limitBytes: MAX_ATTACHMENT_BYTES } });
      throw error;
    }
    const record: UploadRecord = { id, accountId: params.accountId, filename: params.filename, contentType: params.contentType, size: counted.bytes, createdAt: this.now() };
    await this.deps.store.run(INSERT, [record.id, record.accountId, record.filename, record.contentType, record.size, record.createdAt]);
    return record;
  }

  /** The account's uploads by id, in the order asked; FileNotFound names any that is missing or not the account's. */
  async owned(accountId: number, ids: readonly string[]): Promise<UploadRecord[]> {
    const records = await this.lookup(accountId, ids);
    const missing = records.filter((entry) => !entry.record).map((entry) => entry.id);
    if (missing.length > 0) throw new TernError('FileNotFound', { detail: { missing } });
    return records.map((entry) => entry.record!);
  }

  /** The ones of `ids` that still exist and are the account's. */
  async existing(accountId: number, ids: readonly string[]): Promise<UploadRecord[]> {
    return (await this.lookup(accountId, ids)).flatMap((entry) => (entry.record ? [entry.record] : []));
  }

  private async lookup(accountId: number, ids: readonly string[]): Promise<{ id: string; record: UploadRecord | undefined }[]> {
    const found: { id: string; record: UploadRecord | undefined }[] = [];
    for (const id of new Set(ids)) found.push({ id, record: await this.deps.store.get<UploadRecord>(OWN, [id, accountId]) });
    return found;
  }

  async read(record: UploadRecord): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(record));
    } catch {
      throw new TernError('FileNotFound', { detail: { missing: [record.id] } });
    }
  }

  /** DELETE /api/files/:id: the person took the file off the message. */
  async remove(accountId: number, id: string): Promise<boolean> {
    const record = await this.deps.store.get<UploadRecord>(OWN, [id, accountId]);
    if (!record) return false;
    await this.drop([record]);
    return true;
  }

  /** After a send: the message's uploads, unless a draft still holds one (a forward of the same file). */
  async release(accountId: number, ids: readonly string[]): Promise<void> {
    const releasable: UploadRecord[] = [];
    for (const id of ids) {
      const record = await this.deps.store.get<UploadRecord>(OWN_UNREFERENCED, [id, accountId]);
      if (record) releasable.push(record);
    }
    await this.drop(releasable);
  }

  /** Uploads older than `maxAgeMs` that no open draft holds; returns how many went. */
  async sweep(maxAgeMs: number): Promise<number> {
    const stale = await this.deps.store.all<UploadRecord>(STALE, [this.now() - maxAgeMs]);
    await this.drop(stale);
    return stale.length;
  }

  private pathOf(record: UploadRecord): string {
    return join(this.deps.dir, String(record.accountId), record.id);
  }

  private async drop(records: readonly UploadRecord[]): Promise<void> {
    for (const record of records) {
      await this.deps.store.run(DELETE, [record.id]);
      await unlink(this.pathOf(record)).catch(() => undefined);
    }
  }
}
