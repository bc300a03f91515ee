import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/** Below this, a download stays in memory; above it, it goes to an unlinked temp file. */
export const SPOOL_MEMORY_LIMIT = 1024 * 1024;

/** A captured download: read it once (`stream()`) or release it (`discard()`). */
export interface Spooled {
  readonly size: number;
  /** The whole content in memory, when it was small enough to keep there. */
  readonly buffer: Buffer | null;
  /** The content from the start; the file (if any) closes when the stream ends or is destroyed. */
  stream(): Readable;
  discard(): Promise<void>;
}

/**
 * Takes a download off the account's IMAP connection as fast as the server sends it.
 * imapflow fetches a part chunk by chunk as its stream is read, so streaming straight to
 * an HTTP client would hold the connection — and the account's sync — for as long as
 * the slowest client takes. Small content stays in memory; large content goes to a file
 * that is unlinked at once (gone on any exit, crash included) and read back through the
 * same handle. Each byte is held once, never a whole file twice.
 */
export class Spool {
  constructor(
    private readonly dir: string,
    private readonly memoryLimit = SPOOL_MEMORY_LIMIT,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  async capture(source: AsyncIterable<Buffer | string>): Promise<Spooled> {
    const chunks: Buffer[] = [];
    let size = 0;
    let file: FileHandle | null = null;
    try {
      for await (const piece of source) {
        const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
        size += chunk.length;
        if (file) {
          await file.write(chunk);
          continue;
        }
        chunks.push(chunk);
        if (size > this.memoryLimit) {
          file = await this.anonymousFile();
          await file.write(Buffer.concat(chunks));
          chunks.length = 0;
        }
      }
    } catch (error) {
      await file?.close().catch(() => undefined);
      throw error;
    }
    return file ? fileSpool(file, size) : memorySpool(Buffer.concat(chunks, size));
  }

  private async anonymousFile(): Promise<FileHandle> {
    const path = join(this.dir, `dl-${randomBytes(12).toString('hex')}`);
    const handle = await open(path, 'wx+', 0o600);
    await unlink(path);
    return handle;
  }
}

function memorySpool(buffer: Buffer): Spooled {
  return { size: buffer.length, buffer, stream: () => Readable.from([buffer]), discard: async () => undefined };
}

function fileSpool(handle: FileHandle, size: number): Spooled {
  let taken = false;
  return {
    size,
    buffer: null,
    stream() {
      if (taken) throw new Error('A spooled file is read once');
      taken = true;
      return handle.createReadStream({ start: 0, autoClose: true });
    },
    async discard() {
      if (!taken) await handle.close();
      taken = true;
    },
  };
}
