/**
 * The engine's floors (DESIGN §9): a file imports only from its own floor or below, and
 * the folders of one floor do not import each other — sync/ and outbox/ least of all —
 * except the few pairs listed below, each with its reason. A new folder must be given a
 * floor here before its first import passes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(__dirname, '../../../src-worker');

/** Floors, lowest first; a floor's entries are folders of src-worker/ or its root files. */
const FLOORS: readonly (readonly string[])[] = [
  ['db/', 'model/'],
  ['mail-store/', 'net/', 'api/', 'log/'],
  ['sync/', 'outbox/', 'queries/', 'search/', 'folders/', 'accounts/', 'analytics/', 'settings/', 'contacts/', 'rules/', 'labels/', 'timers/', 'security/', 'templates/', 'notifications/', 'senders/', 'priority/', 'auto-clean/'],
  ['account-runtime.ts', 'session-service.ts', 'boundary/'],
  ['mail-engine.ts'],
  ['engine.ts'],
  ['entry.ts'],
];

/** Imports between folders of one floor that are allowed, and why. Never sync/ ↔ outbox/. */
const SIDEWAYS_ALLOWED: ReadonlyMap<string, string> = new Map([
  ['db/ -> model/', 'the schema keys messages by their Message-ID hash'],
  ['model/ -> db/', 'models are read and written through the store'],
  ['api/ -> net/', 'the HTTP retry waits with the one backoff'],
  ['queries/ -> search/', 'a search list is read through the search index'],
  ['queries/ -> sync/', 'the sync status is a live query too (sync-status-feed.ts)'],
  ['outbox/ -> queries/', 'commands parse their params as queries do (query-params.ts)'],
  ['folders/ -> queries/', 'folder commands parse their params as queries do (query-params.ts)'],
  ['accounts/ -> outbox/', 'a forced logout keeps the unsent work (unsent-work.ts)'],
  ['analytics/ -> accounts/', 'the analytics queues live in the accounts database'],
  ['timers/ -> queries/', 'timer commands parse their params as queries do (query-params.ts)'],
  ['senders/ -> search/', 'the senders are counted in the search index, which holds every cached message'],
]);

/** The file an import names: `./engine` is `engine.ts`. */
function resolved(target: string): string {
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return target;
}

function unitOf(file: string): string {
  const relative = path.relative(ROOT, file).split(path.sep).join('/');
  const slash = relative.indexOf('/');
  return slash === -1 ? relative : relative.slice(0, slash + 1);
}

function floorOf(unit: string): number {
  return FLOORS.findIndex((floor) => floor.includes(unit));
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Relative specifiers of every static, side-effect, re-export and dynamic import. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;
  for (const match of source.matchAll(pattern)) found.push(match[2]!);
  return found;
}

interface Edge {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

function edges(): Edge[] {
  return sourceFiles(ROOT).flatMap((file) =>
    importsOf(fs.readFileSync(file, 'utf8'))
      .map((specifier) => resolved(path.resolve(path.dirname(file), specifier)))
      .filter((target) => target.startsWith(ROOT + path.sep))
      .map((target) => ({ file: path.relative(ROOT, file), from: unitOf(file), to: unitOf(target) })),
  );
}

/** What is wrong with one import, or null. */
export function violation(edge: { from: string; to: string }): string | null {
  const from = floorOf(edge.from);
  const to = floorOf(edge.to);
  if (from === -1) return `${edge.from} has no floor`;
  if (to === -1) return `${edge.to} has no floor`;
  if (edge.from === edge.to || to < from) return null;
  if (to > from) return `imports upward: ${edge.from} -> ${edge.to}`;
  return SIDEWAYS_ALLOWED.has(`${edge.from} -> ${edge.to}`) ? null : `imports sideways: ${edge.from} -> ${edge.to}`;
}

describe('worker layers (DESIGN §9)', () => {
  test('every import of src-worker goes to its own folder, a lower floor or an allowed neighbour', () => {
    const all = edges();
    expect(all.length).toBeGreaterThan(100);
    const wrong = all.flatMap((edge) => {
      const problem = violation(edge);
      return problem ? [`${edge.file}: ${problem}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  test('sync/ and outbox/ never import each other, and nothing imports the engine from below', () => {
    expect(SIDEWAYS_ALLOWED.has('sync/ -> outbox/') || SIDEWAYS_ALLOWED.has('outbox/ -> sync/')).toBe(false);
    expect(violation({ from: 'outbox/', to: 'sync/' })).toMatch(/sideways/);
    expect(violation({ from: 'sync/', to: 'outbox/' })).toMatch(/sideways/);
    expect(violation({ from: 'mail-store/', to: 'sync/' })).toMatch(/upward/);
    expect(violation({ from: 'queries/', to: 'engine.ts' })).toMatch(/upward/);
    expect(violation({ from: 'sync/', to: 'mail-store/' })).toBeNull();
  });

  test('the import parser sees every form of import', () => {
    const source = `import a from './a';\nimport type { B } from "../b";\nexport { c } from './c';\nimport './d';\nconst e = await import('./e');\nimport {\n  f,\n} from './f';`;
    expect(importsOf(source)).toEqual(['./a', '../b', './c', './d', './e', './f']);
  });
});
