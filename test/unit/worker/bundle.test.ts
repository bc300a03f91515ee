import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The worker bundle as build.mjs makes it (minified ESM). `import { z } from 'zod'` binds
 * zod's whole namespace object, locales included (~65 KB gzipped of error messages in 40
 * languages the engine never shows); `import * as z from 'zod'` lets esbuild keep only
 * what is used. This fails when a module the worker bundles goes back to the named import.
 */
test('the worker bundle carries no zod locale but English', async () => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src-worker/entry.ts'],
    bundle: true,
    format: 'esm',
    target: ['chrome120', 'firefox121', 'safari17'],
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    define: { __TERN_BRAND__: '"tern"', 'process.env.NODE_ENV': '"production"' },
  });
  const inputs = Object.keys(Object.values(result.metafile.outputs)[0]!.inputs);
  const locales = inputs.filter((input) => /zod\/v4\/locales\//.test(input)).map((input) => input.replace(/.*\/locales\//, ''));
  expect(locales).toEqual(['en.js']);
  const bytes = result.outputFiles[0]!.contents;
  console.log(`worker bundle: ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipSync(bytes).length / 1024).toFixed(1)} KB gzipped`);
}, 30_000);
