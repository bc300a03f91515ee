import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, test } from 'vitest';
import { Spool } from '../../../../src-server/reading/spool';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function spoolIn(limit: number) {
  const dir = await mkdtemp(join(tmpdir(), 'tern-spool-'));
  dirs.push(dir);
  return { dir, spool: new Spool(join(dir, 'spool'), limit) };
}

const chunks = (count: number, size: number) => Readable.from(Array.from({ length: count }, (_, i) => Buffer.alloc(size, 97 + (i % 26))));

describe('download spool', () => {
  test('small content stays in memory', async () => {
    const { spool } = await spoolIn(1024);
    const spooled = await spool.capture(chunks(3, 100));
    expect(spooled.size).toBe(300);
    expect(spooled.buffer?.toString()).toBe('a'.repeat(100) + 'b'.repeat(100) + 'c'.repeat(100));
  });

  test('large content goes to a file that has no name on disk, and reads back whole', async () => {
    const { dir, spool } = await spoolIn(1024);
    const spooled = await spool.capture(chunks(40, 500));
    expect(spooled.size).toBe(20_000);
    expect(spooled.buffer).toBeNull();
    expect(await readdir(join(dir, 'spool'))).toEqual([]);
    const content = await text(spooled.stream());
    expect(content).toHaveLength(20_000);
    expect(content.slice(0, 500)).toBe('a'.repeat(500));
    expect(content.slice(-500)).toBe('n'.repeat(500));
    expect(() => spooled.stream()).toThrow(/once/);
  });

  test('a failing source leaves nothing behind', async () => {
    const { dir, spool } = await spoolIn(10);
    async function* failing() {
      yield Buffer.alloc(100);
      throw new Error('connection lost');
    }
    await expect(spool.capture(failing())).rejects.toThrow('connection lost');
    expect(await readdir(join(dir, 'spool'))).toEqual([]);
  });
});
