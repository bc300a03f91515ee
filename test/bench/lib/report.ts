/** Writes a run's figures as test/bench/results/latest.json and a Markdown table beside it. */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Figure } from './scenario';
import type { Summary } from './stats';

export interface RunInfo {
  readonly startedAt: string;
  readonly durationSec: number;
  readonly quick: boolean;
  readonly scenarios: readonly string[];
  readonly machine: { cpus: number; cpuModel: string; memoryGB: number; node: string; chromium: string | null };
  readonly warnings: readonly string[];
  /** 1-minute load average at the start and end of each scenario (other work on the machine shows here). */
  readonly load: Record<string, [number, number]>;
}

export function machineInfo(chromium: string | null): RunInfo['machine'] {
  const cpus = os.cpus();
  return { cpus: cpus.length, cpuModel: cpus[0]?.model ?? 'unknown', memoryGB: Math.round(os.totalmem() / 2 ** 30), node: process.version, chromium };
}

function format(value: number, unit: Figure['unit']): string {
  const number = unit === 'msg/s' || unit === 'ms' ? Math.round(value).toLocaleString('en') : String(value);
  return unit === 'rows' || unit === 'frames' || unit === 'round trips' || unit === 'requests' ? number : `${number} ${unit}`;
}

/** Within, over, or no budget to judge by — from the median at 1× (the machine as it is), or the p95 for a budget on it. */
export function verdict(figure: Figure): string {
  const summary = figure.results['1'];
  if (figure.status !== 'measured' || !summary) return 'not measured';
  const { limit, better, statistic } = figure.budget;
  if (limit === undefined) return '—';
  const judged = (s: Summary) => (statistic === 'p95' ? s.p95 : s.median);
  const within = (better ?? 'lower') === 'lower' ? judged(summary) <= limit : judged(summary) >= limit;
  const throttled = figure.results['4'];
  const throttledNote = throttled && !((better ?? 'lower') === 'lower' ? judged(throttled) <= limit : judged(throttled) >= limit) ? ' (over at 4×)' : '';
  return within ? `within${throttledNote}` : 'OVER';
}

const cell = (summary: Summary | undefined, unit: Figure['unit'], pick: 'median' | 'p95') => (summary ? format(summary[pick], unit) : '');
const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdown(figures: readonly Figure[], info: RunInfo): string {
  const lines: string[] = [];
  lines.push('# Tern Mail benchmarks — latest run', '');
  lines.push(
    `${info.startedAt} · ${Math.round(info.durationSec / 6) / 10} min · ${info.machine.cpus} × ${info.machine.cpuModel}, ${info.machine.memoryGB} GB · Node ${info.machine.node}` +
      (info.machine.chromium ? ` · ${info.machine.chromium}` : '') +
      (info.quick ? ' · **quick mode (few runs: figures are rough)**' : ''),
    '',
  );
  lines.push('Budgets from DESIGN §8. Median and p95 (linear between ranks) over the runs; **4×** is the same figure with Chromium\'s CPU throttled 4× (`Emulation.setCPUThrottlingRate`), for browser figures only. Verdicts judge the 1× median (the p95 where the budget is worded on it).', '');
  lines.push('| # | figure | budget | median | p95 | median 4× | p95 4× | runs | verdict | note |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const figure of [...figures].sort((a, b) => a.item - b.item)) {
    const normal = figure.results['1'];
    const throttled = figure.results['4'];
    const runs = [normal?.runs, throttled?.runs].filter((n) => n !== undefined).join(' / ');
    const status = figure.status === 'measured' ? verdict(figure) : '**not yet measurable**';
    lines.push(
      `| ${figure.item} | ${escape(figure.what)} | ${escape(figure.budget.text)} | ${cell(normal, figure.unit, 'median')} | ${cell(normal, figure.unit, 'p95')} | ` +
        `${figure.browser ? cell(throttled, figure.unit, 'median') : 'n/a'} | ${figure.browser ? cell(throttled, figure.unit, 'p95') : 'n/a'} | ${runs} | ${status} | ${escape(figure.note)} |`,
    );
  }
  const loads = Object.entries(info.load);
  if (loads.length > 0) {
    lines.push('', `Machine load (1-minute load average at the start → end of each scenario, ${info.machine.cpus} cores; above ${info.machine.cpus} means other processes competed for the CPU): ` + loads.map(([id, [a, b]]) => `${id} ${a} → ${b}`).join(', ') + '.');
  }
  if (info.warnings.length > 0) lines.push('', '## Warnings', '', ...info.warnings.map((w) => `- ${escape(w)}`));
  const profiled = figures.filter((figure) => figure.details?.profile);
  if (profiled.length > 0) {
    lines.push('', '## Where the time goes (CPU profiles of over-budget figures)', '');
    for (const figure of profiled) {
      lines.push(`### ${figure.what}`, '', String(figure.details?.profile), '');
    }
  }
  lines.push('', 'Regenerate with `npm run bench`; raw samples are in `latest.json`.', '');
  return lines.join('\n');
}

export async function writeResults(dir: string, figures: readonly Figure[], info: RunInfo): Promise<{ json: string; md: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'latest.json');
  const md = path.join(dir, 'latest.md');
  const ordered = [...figures].sort((a, b) => a.item - b.item);
  await writeFile(json, JSON.stringify({ run: info, figures: ordered.map((figure) => ({ ...figure, verdict: verdict(figure) })) }, null, 2) + '\n');
  await writeFile(md, renderMarkdown(ordered, info));
  return { json, md };
}
