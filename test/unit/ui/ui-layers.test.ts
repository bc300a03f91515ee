/**
 * DESIGN §9: inside src-ui/ every file imports only from its own floor or below —
 *   kit/ (with theme/ and brand.ts: pure, no React state) → engine/ (the connection to the
 *   worker) → state/ (atoms, the one module where engine pushes enter, pure list logic) →
 *   feature folders (thread-list/, conversation/, composer/, sidebar/, toolbar/, login/,
 *   settings/, attachments/, mail-html/, keyboard/, shell/) → app/ (routes and layout) and
 *   main.tsx.
 * A feature does not reach into another feature: it may use another's public index
 * (`<feature>/index.ts`), or an entry that feature names public (PUBLIC_ENTRIES). This test
 * reads the imports of every source file (static, re-exports and dynamic `import()`) and
 * fails on an import that goes up or sideways.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', '..', 'src-ui');

/** Each top folder (or root file) of src-ui/ and its floor; higher floors may import lower ones. */
const FLOORS: Record<string, number> = {
  kit: 0,
  theme: 0,
  'brand.ts': 0,
  'globals.d.ts': 0,
  engine: 1,
  // The spell checker's own worker and its client, and the pure text work around them: like engine, a worker's door.
  spell: 1,
  state: 2,
  'thread-list': 3,
  conversation: 3,
  composer: 3,
  sidebar: 3,
  toolbar: 3,
  login: 3,
  settings: 3,
  attachments: 3,
  'mail-html': 3,
  keyboard: 3,
  shell: 3,
  offline: 3,
  contacts: 3,
  scheduled: 3,
  timers: 3,
  app: 4,
  'main.tsx': 4,
  'styles.css': 4,
};
const FEATURE = 3;

/**
 * Entries of a feature the others may import besides its index. mail-html/ is the mail HTML
 * pipeline (DESIGN §5, STYLE item 12): small pure steps the composer's quotes and the
 * conversation's bodies both run, so its modules are its public face.
 */
const PUBLIC_ENTRIES = [
  /^composer\/compose-initial\.ts$/, // the pure builders of a composer's `initial` (composer/index.ts says so)
  /^mail-html\/[^/]+\.tsx?$/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** The relative specifiers a file imports: `import … from`, `export … from`, `import '…'` and `import('…')`. */
export function importsOf(code: string): string[] {
  const specifiers = [...code.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)];
  return specifiers.map((match) => match[1] ?? match[2] ?? match[3]!).filter((specifier) => specifier.startsWith('.'));
}

/** The file a specifier names, relative to src-ui/ (a folder means its index). */
function resolveImport(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts'), join(target, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile()) return relative(SRC, candidate).split('\\').join('/');
    } catch {
      // not this one
    }
  }
  return relative(SRC, target).split('\\').join('/');
}

const topOf = (path: string) => path.split('/')[0]!;

/** Why an import breaks the layers, or null when it keeps them. */
export function layerViolation(fromFile: string, toFile: string): string | null {
  if (toFile.startsWith('..')) return null; // shared/ and the rest of the repository sit below src-ui
  const from = topOf(fromFile);
  const to = topOf(toFile);
  if (from === to) return null;
  const fromFloor = FLOORS[from];
  const toFloor = FLOORS[to];
  if (fromFloor === undefined) return `${from} is not placed on a floor (add it to FLOORS)`;
  if (toFloor === undefined) return `${to} is not placed on a floor (add it to FLOORS)`;
  if (toFloor > fromFloor) return `${from} (floor ${fromFloor}) imports up into ${to} (floor ${toFloor})`;
  if (fromFloor === FEATURE && toFloor === FEATURE) {
    const inside = toFile.slice(to.length + 1);
    if (/^index\.tsx?$/.test(inside) || PUBLIC_ENTRIES.some((entry) => entry.test(toFile))) return null;
    return `feature ${from} reaches into feature ${to} past its public index`;
  }
  return null;
}

/** Imports that break the layers today, each with its way out; the list may only shrink. */
const KNOWN: Record<string, string> = {};

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const fromFile = relative(SRC, file).split('\\').join('/');
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const toFile = resolveImport(file, specifier);
      const why = layerViolation(fromFile, toFile);
      if (why) found.push(`${fromFile} -> ${toFile}: ${why}`);
    }
  }
  return found;
}

test('every src-ui file imports only from its floor or below, and features only through public entries', () => {
  const found = violations();
  const unexpected = found.filter((line) => !(line.split(':')[0]! in KNOWN));
  expect(unexpected).toEqual([]);
  // A known exception that is gone is struck from KNOWN, so it cannot come back unnoticed.
  const gone = Object.keys(KNOWN).filter((edge) => !found.some((line) => line.startsWith(`${edge}:`)));
  expect(gone).toEqual([]);
});

test('the rule itself: up, sideways and unplaced imports are caught; down and public ones pass', () => {
  expect(layerViolation('kit/Menu.tsx', 'state/atoms.ts')).toMatch(/imports up/);
  expect(layerViolation('state/atoms.ts', 'thread-list/ThreadList.tsx')).toMatch(/imports up/);
  expect(layerViolation('toolbar/Toolbar.tsx', 'app/MailboxView.tsx')).toMatch(/imports up/);
  expect(layerViolation('conversation/MessageItem.tsx', 'composer/Composer.tsx')).toMatch(/past its public index/);
  expect(layerViolation('newthing/x.ts', 'kit/icons.tsx')).toMatch(/not placed/);
  expect(layerViolation('conversation/MessageItem.tsx', 'attachments/index.ts')).toBeNull();
  expect(layerViolation('composer/editor-html.ts', 'mail-html/purify-config.ts')).toBeNull();
  expect(layerViolation('app/App.tsx', 'state/atoms.ts')).toBeNull();
  expect(layerViolation('kit/icons.tsx', '../shared/brands.ts')).toBeNull();
  expect(importsOf(`import a from './a';\nexport { b } from "../b";\nimport './c.css';\nconst d = lazy(() => import('../d'));\nimport x from 'react';`)).toEqual(['./a', '../b', './c.css', '../d']);
});
