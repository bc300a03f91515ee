import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, expect, test } from 'vitest';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function build(...args: string[]) {
  const out = await mkdtemp(join(tmpdir(), 'tern-build-'));
  dirs.push(out);
  await run(process.execPath, ['build.mjs', '--no-install', `--out=${out}`, ...args]);
  return out;
}

test('--brand=kite builds a Kite page naming content-hashed bundles that exist', async () => {
  const out = await build('--brand=kite');
  const html = await readFile(join(out, 'public', 'build', 'index.html'), 'utf8');
  expect(html).toContain('<title>Kite Mail</title>');
  expect(html).toContain('content="#c2410c"');
  const files = await readdir(join(out, 'public', 'build'));
  const worker = /content="\/build\/(worker-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
  const entry = /<script type="module" src="\/build\/(app-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
  expect(files).toContain(worker);
  expect(files).toContain(entry);
  await expect(readdir(join(out, 'dist', 'server'))).resolves.toContain('gateway.mjs');

  // Every script, style sheet and the page over 1 KB has brotli and gzip copies holding the same
  // bytes; a tiny file whose copy would not be smaller has none (the gateway sends the file).
  const built = join(out, 'public', 'build');
  const names = await readdir(built, { recursive: true });
  const texts = names.filter((file) => /\.(js|css|html)$/.test(file));
  expect(texts.length).toBeGreaterThan(3);
  for (const file of texts) {
    const source = await readFile(join(built, file));
    for (const [extension, unpack] of [['.br', brotliDecompressSync], ['.gz', gunzipSync]] as const) {
      if (source.length >= 1024) expect(names, `${file}${extension}`).toContain(`${file}${extension}`);
      if (!names.includes(`${file}${extension}`)) continue;
      const packed = await readFile(join(built, `${file}${extension}`));
      expect(packed.length).toBeLessThan(source.length);
      expect(unpack(packed).equals(source), `${file}${extension}`).toBe(true);
    }
  }
  // Maps get gzip only; brotli's top quality is slow on them and only DevTools reads them.
  await expect(readFile(join(built, `${entry}.map.gz`))).resolves.toBeInstanceOf(Buffer);
  await expect(readFile(join(built, `${entry}.map.br`))).rejects.toMatchObject({ code: 'ENOENT' });
}, 60_000);

test('the default brand is tern, and the same sources give the same hashes', async () => {
  const [a, b] = [await build('--no-precompress'), await build('--no-precompress')];
  const pageA = await readFile(join(a, 'public', 'build', 'index.html'), 'utf8');
  expect(pageA).toContain('<title>Tern Mail</title>');
  expect(pageA).toBe(await readFile(join(b, 'public', 'build', 'index.html'), 'utf8'));
}, 60_000);

test('an unknown brand fails the build with exit code 2', async () => {
  await expect(build('--brand=heron', '--no-precompress')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown brand "heron"') });
}, 60_000);
