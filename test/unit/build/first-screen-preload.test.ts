/**
 * The page loads what a signed-in reload shows first in one go (DESIGN §8 warm start):
 * modulepreload links for the entry, the app and the mailbox screens with every chunk
 * they import statically, and the engine boot module as an async script.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { BUILD_TEST_TIMEOUT_MS, sharedDefaultBuild } from './app-build';

async function staticImports(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of (await readFile(file, 'utf8')).matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)) await staticImports(resolve(dirname(file), match[1]!), seen);
  return seen;
}

test('the page preloads the first screen\'s chunks and starts the engine from a boot module', async () => {
  const out = await sharedDefaultBuild();
  const build = join(out, 'public', 'build');
  const html = await readFile(join(build, 'index.html'), 'utf8');
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\/build\/([^"]+)"/g)].map((match) => join(build, match[1]!));
  for (const file of preloaded) expect(existsSync(file), file).toBe(true);

  const entry = join(build, /<script type="module" src="\/build\/([^"]+)"/.exec(html)![1]!);
  const boot = join(build, /<script type="module" async src="\/build\/(boot-[A-Z0-9]{8}\.js)"/.exec(html)![1]!);
  const screens = ['App', 'MailLayout', 'MailboxRoutes'].map((name) => preloaded.find((file) => new RegExp(`/chunks/${name}-[A-Z0-9]{8}\\.js$`).test(file)));
  expect(screens.every(Boolean)).toBe(true);
  for (const root of [boot, entry, ...(screens as string[])]) {
    for (const file of await staticImports(root)) expect(preloaded, `${file} (imported by ${root})`).toContain(file);
  }
  // The screens behind the login, the composer and the conversation stay lazy.
  expect(preloaded.some((file) => /\/(LoginScreen|composer|conversation)-/.test(file))).toBe(false);
}, BUILD_TEST_TIMEOUT_MS);
