/**
 * Reads a V8 CPU profile (`node --cpu-prof`) of the gateway and says where the time went:
 * self time by function and by area (a package under node_modules, a gateway source file
 * — mapped back through dist/server/gateway.mjs.map — Node's internals, GC, idle).
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { BUILD_DIR, GATEWAY_BUNDLE, REPO_ROOT } from './bench-build';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Sampled time not spent idle. */
  readonly busyMs: number;
  readonly byArea: readonly { area: string; ms: number; share: number }[];
  readonly byFunction: readonly { fn: string; where: string; area: string; ms: number; share: number }[];
}

const maps = new Map<string, SourceMap | null>();
/** The source map next to a built file (`<file>.map`), read once. */
function mapOf(file: string): SourceMap | null {
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
    } catch {
      maps.set(file, null);
    }
  }
  return maps.get(file) ?? null;
}

/** A frame of a built bundle, mapped back to its source file and line. */
function mapped(file: string, frame: ProfileNode['callFrame'], label: string): { area: string; where: string } {
  const entry = mapOf(file)?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource) {
    const source = path.relative(REPO_ROOT, path.resolve(path.dirname(file), entry.originalSource.replace(/^file:\/\//, '')));
    const modules = source.lastIndexOf('node_modules/');
    if (modules !== -1) {
      const rest = source.slice(modules + 'node_modules/'.length).split('/');
      const pkg = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? '?');
      return { area: `npm: ${pkg}`, where: `${rest.join('/')}:${(entry.originalLine ?? 0) + 1}` };
    }
    return { area: source, where: `${source}:${(entry.originalLine ?? 0) + 1}` };
  }
  return { area: `${label} (unmapped)`, where: `${label}:${frame.lineNumber + 1}` };
}


const SPECIAL: Record<string, string> = { '(garbage collector)': 'GC', '(idle)': 'idle', '(program)': 'V8/native (program)', '(root)': 'V8/native (program)' };

/** Where a frame belongs, and a readable location for it. */
function locate(frame: ProfileNode['callFrame']): { area: string; where: string } {
  const special = SPECIAL[frame.functionName];
  if (special && !frame.url) return { area: special, where: '' };
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return { area: 'V8/native (program)', where: '' };
  if (url.startsWith('node:')) return { area: 'Node internals', where: url };
  if (url === GATEWAY_BUNDLE) return mapped(GATEWAY_BUNDLE, frame, 'gateway.mjs');
  // A browser bundle served by the gateway: http://127.0.0.1:<port>/build/<file>.js
  const served = /^https?:\/\/[^/]+\/build\/([^?#]+\.js)$/.exec(url);
  if (served) return mapped(path.join(BUILD_DIR, served[1]!), frame, served[1]!);
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    const pkg = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? '?');
    return { area: `npm: ${pkg}`, where: `${rest.join('/')}:${frame.lineNumber + 1}` };
  }
  return { area: path.relative(REPO_ROOT, url), where: `${path.relative(REPO_ROOT, url)}:${frame.lineNumber + 1}` };
}

export function summarizeProfile(input: string | CpuProfile, top = 12): ProfileSummary {
  const profile = typeof input === 'string' ? (JSON.parse(readFileSync(input, 'utf8')) as CpuProfile) : input;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    // timeDeltas[i] is the time between sample i-1 and i: charge it to the sample it ends in.
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const areas = new Map<string, number>();
  const functions = new Map<string, { fn: string; where: string; area: string; ms: number }>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, ms] of selfMs) {
    const node = byId.get(id);
    if (!node) continue;
    totalMs += ms;
    const { area, where } = locate(node.callFrame);
    if (area === 'idle') {
      idleMs += ms;
      continue;
    }
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const fn = node.callFrame.functionName || '(anonymous)';
    const key = `${fn}@${where}`;
    const entry = functions.get(key) ?? { fn, where, area, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
  }
  const busyMs = totalMs - idleMs;
  const share = (ms: number) => (busyMs > 0 ? ms / busyMs : 0);
  return {
    totalMs,
    busyMs,
    byArea: [...areas].map(([area, ms]) => ({ area, ms, share: share(ms) })).sort((a, b) => b.ms - a.ms).slice(0, top),
    byFunction: [...functions.values()].map((entry) => ({ ...entry, share: share(entry.ms) })).sort((a, b) => b.ms - a.ms).slice(0, top),
  };
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The summary as Markdown lists, for latest.md and the console. */
export function profileMarkdown(summary: ProfileSummary, title: string): string {
  const lines = [
    `${title}: ${(summary.totalMs / 1000).toFixed(1)} s sampled, ${(summary.busyMs / 1000).toFixed(1)} s on the CPU (the rest idle: waiting for I/O or work).`,
    '',
    'Self time by area (share of CPU time):',
    '',
    ...summary.byArea.map((entry) => `- ${entry.area}: ${Math.round(entry.ms)} ms (${pct(entry.share)})`),
    '',
    'Top functions by self time:',
    '',
    ...summary.byFunction.map((entry) => `- \`${entry.fn}\` ${entry.where ? `(${entry.where})` : ''}: ${Math.round(entry.ms)} ms (${pct(entry.share)})`),
  ];
  return lines.join('\n');
}
