/**
 * `npm run bench`: the DESIGN §8 budgets measured with real components (issue 6).
 *
 *   tsx test/bench/run.ts [--quick] [--only=id,id] [--skip=id,id] [--profile] [--minutes=N] [--list]
 *
 * Starts a private Dovecot + Postfix on free ports in a temporary directory, seeds the
 * mailboxes a scenario asks for (10k, 100k — each once per run), runs the scenarios one
 * after another (each starts its own gateway child process), and writes
 * test/bench/results/latest.json and latest.md. Everything it started is stopped and
 * removed at the end, on failure and on Ctrl-C.
 *
 * --quick    few runs per figure, to try the harness (figures are rough)
 * --only     run only these scenarios (ids from --list)
 * --profile  take CPU profiles of the cold syncs even within budget
 * --minutes  the run's time budget (default 14, so that it ends within 15 minutes; 30 with
 *            --scale); more time lets the browser's 100k scenario fill the whole cache
 * --scale    also the scale scenarios of issue 12 (1,000 idle accounts, failover of 300,
 *            PostgreSQL beside SQLite): a few minutes each; `--only` runs them by name too
 *
 * TERN_BENCH_BUILD=<dir> measures a build made beforehand (`node build.mjs --out=<dir>
 * --no-install`, a directory inside the repository) instead of building one: A/B runs of
 * two builds under the same load. `tsx test/bench/trace-ui.ts` traces single interactions.
 */
import os from 'node:os';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM_PATH } from '../e2e/chromium';
import { ensureDebianPackages } from '../harness/system-packages';
import { buildForBench, removeBenchBuild } from './lib/bench-build';
import { BenchEnv } from './lib/bench-env';
import { closeBrowser, launchedVersion } from './lib/browser';
import { machineInfo, verdict, writeResults } from './lib/report';
import type { Figure, FigureSpec, Scenario, ScenarioContext } from './lib/scenario';
import { summarize } from './lib/stats';
import { bundleSize } from './scenarios/bundle-size';
import { contacts } from './scenarios/contacts';
import { gatewayColdSync } from './scenarios/gateway-cold-sync';
import { failover300 } from './scenarios/failover-300';
import { idle1000 } from './scenarios/idle-1000';
import { newMail } from './scenarios/new-mail';
import { pgMirror } from './scenarios/pg-mirror';
import { resync } from './scenarios/resync';
import { scheduledBurst } from './scenarios/scheduled-burst';
import { senders } from './scenarios/senders';
import { spell } from './scenarios/spell';
import { priority } from './scenarios/priority';
import { labelFilter } from './scenarios/label-filter';
import { uiScenarios } from './scenarios/ui';
import { uiBytes } from './scenarios/ui-bytes';
import { uiSignin20k } from './scenarios/ui-signin';

/** The whole run must end within 15 minutes; scenarios cut their repetitions to stay inside this (--minutes to change). */
const DEFAULT_MINUTES = 14;
/** With --scale: the scale scenarios' few minutes each on top. */
const DEFAULT_SCALE_MINUTES = 30;
const RESULTS_DIR = path.join(import.meta.dirname, 'results');

const SCENARIOS: Scenario[] = [bundleSize, gatewayColdSync('10k', 8), resync, newMail, gatewayColdSync('100k', 3), ...uiScenarios, uiSignin20k, uiBytes, contacts, senders, labelFilter, spell, priority, scheduledBurst, idle1000, failover300, pgMirror];

function parseOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      skip: { type: 'string' },
      profile: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      minutes: { type: 'string' },
    },
  });
  const minutes = Number(values.minutes ?? (values.scale ? DEFAULT_SCALE_MINUTES : DEFAULT_MINUTES));
  if (!(minutes > 0)) throw new Error(`--minutes must be a positive number, got ${values.minutes}`);
  const ids = (text: string | undefined) => (text ? text.split(',').map((id) => id.trim()).filter(Boolean) : []);
  const only = ids(values.only);
  const skip = ids(values.skip);
  for (const id of [...only, ...skip]) {
    if (!SCENARIOS.some((scenario) => scenario.id === id)) throw new Error(`Unknown scenario "${id}". Scenarios: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  }
  const planned = (scenario: Scenario) => (only.length === 0 ? !scenario.scale || values.scale! : only.includes(scenario.id));
  const chosen = SCENARIOS.filter((scenario) => planned(scenario) && !skip.includes(scenario.id));
  return { quick: values.quick!, profile: values.profile!, list: values.list!, chosen, budgetMs: minutes * 60_000 };
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.list) {
    for (const scenario of SCENARIOS) console.log(`${scenario.id.padEnd(20)} ~${scenario.estimateSec} s  ${scenario.title}${scenario.scale ? ' (--scale)' : ''}`);
    return;
  }
  const startedAt = new Date();
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`;
  const log = (line: string) => console.log(`[bench ${elapsed()}] ${line}`);
  const warnings: string[] = [];
  const figures = new Map<string, Figure>();

  log(`plan: ${options.chosen.map((s) => s.id).join(', ')} (estimated ${Math.round(options.chosen.reduce((sum, s) => sum + s.estimateSec, 0) / 60)} min${options.quick ? ', quick mode' : ''})`);
  rmSync(path.join(RESULTS_DIR, 'profiles'), { recursive: true, force: true });

  // Ctrl-C (or SIGTERM) at any point: stop what was started — also a BenchEnv still starting — then exit.
  let pendingEnv: Promise<BenchEnv> | null = null;
  let interrupted: Promise<void> | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    console.log(`\n${signal}: stopping the gateway, browser and mail servers…`);
    interrupted = (async () => {
      const starting = await pendingEnv?.catch(() => null);
      await starting?.close();
      removeBenchBuild();
    })().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const load: Record<string, [number, number]> = {};
  const load1 = () => Math.round((os.loadavg()[0] ?? 0) * 10) / 10;
  log(`machine load (1-minute average) at the start: ${load1()} on ${os.cpus().length} cores`);
  // The browser scenarios need Debian's Chromium; like `npm test`, the bench installs it (as root) on a fresh machine.
  if (options.chosen.some((scenario) => [...uiScenarios, uiBytes].includes(scenario))) {
    await ensureDebianPackages([{ name: 'chromium', binary: CHROMIUM_PATH }], log);
  }
  await buildForBench(log);
  if (interrupted) await new Promise(() => undefined);
  log('starting Dovecot and Postfix on free ports…');
  pendingEnv = BenchEnv.create(log);
  const env = await pendingEnv.catch((error: unknown) => {
    removeBenchBuild();
    throw error;
  });
  if (interrupted) await new Promise(() => undefined);
  env.onClose(() => removeBenchBuild());
  env.onClose(() => closeBrowser());

  const record = (spec: FigureSpec, results: Figure['results'], status: Figure['status'], note: string, details?: Record<string, unknown>) => {
    figures.set(spec.key, { ...spec, status, results, note, details });
  };

  try {
    for (const scenario of options.chosen) {
      const ctx: ScenarioContext = {
        env,
        quick: options.quick,
        profileAlways: options.profile,
        artefactsDir: RESULTS_DIR,
        timeLeftMs: () => options.budgetMs - (performance.now() - started),
        progress: (line) => log(`  ${scenario.id}: ${line}`),
        record: (spec, samples, note, details) => {
          const results: Figure['results'] = {};
          for (const [rate, values] of Object.entries(samples) as [`${1 | 4}`, readonly number[]][]) {
            if (values.length > 0) results[rate] = summarize(values);
          }
          const figure: Figure = { ...spec, status: 'measured', results, note, details };
          figures.set(spec.key, figure);
          const one = results['1'];
          log(`  ${scenario.id}: ${spec.what}: median ${one?.median} ${spec.unit}, p95 ${one?.p95}${results['4'] ? `; 4×: median ${results['4'].median}, p95 ${results['4'].p95}` : ''} (${verdict(figure)})`);
        },
        unmeasurable: (spec, why) => {
          record(spec, {}, 'not-measurable', `not yet measurable: ${why}`);
          log(`  ${scenario.id}: ${spec.what}: not yet measurable — ${why}`);
        },
      };
      if (interrupted) break;
      if (ctx.timeLeftMs() < scenario.estimateSec * 300) {
        const why = `skipped: ${Math.round(ctx.timeLeftMs() / 1000)} s left of the run's ${options.budgetMs / 60_000}-minute budget, the scenario needs about ${scenario.estimateSec} s`;
        warnings.push(`${scenario.id} ${why}`);
        for (const spec of scenario.figures) if (!figures.has(spec.key)) record(spec, {}, 'not-measurable', why);
        continue;
      }
      log(`▶ ${scenario.title}`);
      const scenarioStarted = performance.now();
      const loadBefore = load1();
      try {
        await scenario.run(ctx);
      } catch (error) {
        // Interrupted: the signal handler is cleaning up and will exit; a failure now is its doing.
        if (interrupted) await new Promise(() => undefined);
        const message = error instanceof Error ? error.message : String(error);
        warnings.push(`${scenario.id} failed: ${message}`);
        log(`  ${scenario.id} FAILED: ${message}`);
        for (const spec of scenario.figures) {
          if (!figures.has(spec.key)) record(spec, {}, 'not-measurable', `scenario failed: ${message.split('\n')[0]}`);
        }
      }
      load[scenario.id] = [loadBefore, load1()];
      log(`  ${scenario.id} took ${((performance.now() - scenarioStarted) / 1000).toFixed(0)} s (load average ${loadBefore} → ${load1()})`);
    }
  } finally {
    if (interrupted) await new Promise(() => undefined); // the signal handler exits when its cleanup is done
    log('stopping the mail servers and cleaning up…');
    await env.close();
  }

  const chromium = await launchedVersion().catch(() => null);
  const durationSec = (performance.now() - started) / 1000;
  const { md, json } = await writeResults(RESULTS_DIR, [...figures.values()], {
    startedAt: startedAt.toISOString(),
    durationSec,
    quick: options.quick,
    scenarios: options.chosen.map((s) => s.id),
    machine: machineInfo(chromium),
    load,
    warnings,
  });
  log(`done in ${(durationSec / 60).toFixed(1)} min: ${path.relative(process.cwd(), md)}, ${path.relative(process.cwd(), json)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
