import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { buildApp as build, BUILD_TEST_TIMEOUT_MS, sharedDefaultBuild } from './app-build';

test('--brand=kite builds a Kite page naming content-hashed bundles that exist', async () => {
  const out = await build('--brand=kite');
  const html = await readFile(join(out, 'public', 'build', 'index.html'), 'utf8');
  expect(html).toContain('<title>Kite Mail</title>');
  // Both themes' colours for the browser's bar; the brand's name, icons (PNGs in its accent, one maskable) and mailto handler in the manifest.
  expect(html).toMatch(/<meta name="theme-color" media="\(prefers-color-scheme: light\)" content="#[0-9a-f]{6}" \/>/);
  expect(html).toMatch(/<meta name="theme-color" media="\(prefers-color-scheme: dark\)" content="#[0-9a-f]{6}" \/>/);
  const manifest = JSON.parse(await readFile(join(out, 'public', 'build', 'manifest.webmanifest'), 'utf8')) as { name: string; icons: { src: string; purpose: string }[]; protocol_handlers: unknown[] };
  expect(manifest.name).toBe('Kite Mail');
  expect(manifest.icons.map((icon) => icon.purpose)).toContain('maskable');
  expect(manifest.protocol_handlers).toEqual([{ protocol: 'mailto', url: '/compose?uri=%s' }]);
  const maskable = await readFile(join(out, 'public', 'build', 'icon-maskable-512.png'));
  expect(maskable.subarray(1, 4).toString('ascii')).toBe('PNG');
  // The corner pixel of a maskable icon is the background, Kite's accent #c2410c: the first row's first RGBA after the filter byte.
  const { inflateSync } = await import('node:zlib');
  const idat = maskable.indexOf('IDAT');
  const firstPixel = inflateSync(maskable.subarray(idat + 4, idat + 4 + maskable.readUInt32BE(idat - 4))).subarray(1, 5);
  expect([...firstPixel]).toEqual([0xc2, 0x41, 0x0c, 255]);
  // The service worker lists this build's files, the page first.
  const sw = await readFile(join(out, 'public', 'build', 'sw.js'), 'utf8');
  const precache = JSON.parse(/^self\.__TERN_PRECACHE__=(.*);$/m.exec(sw)![1]!) as { version: string; urls: string[] };
  expect(precache.urls[0]).toBe('/');
  const files = await readdir(join(out, 'public', 'build'));
  const worker = /content="\/build\/(worker-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
  const entry = /<script type="module" src="\/build\/(app-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
  expect(files).toContain(worker);
  expect(files).toContain(entry);
  expect(precache.urls).toEqual(expect.arrayContaining([`/build/${worker}`, `/build/${entry}`, '/build/manifest.webmanifest', '/build/icon-maskable-512.png']));
  expect(precache.urls.some((url) => url.endsWith('.map'))).toBe(false);
  await expect(readdir(join(out, 'dist', 'server'))).resolves.toContain('gateway.mjs');
  // The emoji picker's data, served by the gateway (never the picker's default CDN): the app's two languages only.
  const emoji = (await readdir(join(out, 'public', 'build', 'emoji'))).filter((file) => file.endsWith('.json'));
  expect(emoji.sort()).toEqual(['de.json', 'en.json']);
  const en = JSON.parse(await readFile(join(out, 'public', 'build', 'emoji', 'en.json'), 'utf8')) as { annotation: string; emoji: string }[];
  expect(en.find((item) => item.emoji === '😀')?.annotation).toBe('grinning face');

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
}, BUILD_TEST_TIMEOUT_MS);

test('the default brand is tern, and the same sources give the same hashes', async () => {
  // Two builds side by side (the second core is otherwise idle): the shared one and one of this test's own.
  const [a, b] = await Promise.all([sharedDefaultBuild(), build('--no-precompress')]);
  const pageA = await readFile(join(a, 'public', 'build', 'index.html'), 'utf8');
  expect(pageA).toContain('<title>Tern Mail</title>');
  expect(pageA).toBe(await readFile(join(b, 'public', 'build', 'index.html'), 'utf8'));
}, BUILD_TEST_TIMEOUT_MS);

test('an unknown brand fails the build with exit code 2', async () => {
  await expect(build('--brand=heron', '--no-precompress')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown brand "heron"') });
}, BUILD_TEST_TIMEOUT_MS);
