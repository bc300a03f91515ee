/**
 * DESIGN §8: the UI entry ≤ 90 KB gzipped, the rest lazy. "The entry" is what the page
 * must download before the first render: the entry file and every chunk it imports
 * statically (esbuild's splitting moves shared code into such chunks).
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { BUILD_TEST_TIMEOUT_MS, sharedDefaultBuild } from '../build/app-build';

const ENTRY_BUDGET_BYTES = 90 * 1024;

async function staticClosure(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = await readFile(file, 'utf8');
  // Static imports only: `import{…}from"./chunks/x.js"` and `import"./x.js"`, never `import("…")`.
  for (const match of code.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
    await staticClosure(resolve(dirname(file), match[1]!), seen);
  }
  return seen;
}

test('the entry and its static imports stay within 90 KB gzipped; screens load lazily', async () => {
  const out = await sharedDefaultBuild();
  const build = join(out, 'public', 'build');
  const entry = (await readdir(build)).find((name) => /^app-[A-Z0-9]{8}\.js$/.test(name))!;
  const files = await staticClosure(join(build, entry));
  let gzipped = 0;
  for (const file of files) gzipped += gzipSync(await readFile(file)).length;
  console.log(`entry ${entry} + ${files.size - 1} static chunks: ${(gzipped / 1024).toFixed(1)} KB gzipped`);
  expect(gzipped).toBeLessThanOrEqual(ENTRY_BUDGET_BYTES);

  // The router, the login screen and the mailbox are not in it.
  const entryCode = (await Promise.all([...files].map((file) => readFile(file, 'utf8')))).join('\n');
  expect(entryCode).not.toContain('Enter your password');
  expect(entryCode).not.toContain('Conversation actions');
  expect(entryCode).toMatch(/import\("\.\/chunks\/App-[A-Z0-9]{8}\.js"\)/);
}, BUILD_TEST_TIMEOUT_MS);
