/**
 * What a scenario file is: a name, a rough cost, and a `run` that records figures. A
 * figure is one row of the results table — a measurement beside its DESIGN §8 budget,
 * taken at CPU rate 1× and, for browser figures, again with the CPU throttled 4×.
 */
import type { BenchEnv } from './bench-env';
import type { CpuRate } from './browser';
import type { Summary } from './stats';

export type Unit = 'ms' | 'KB' | 'MB' | 'msg/s' | 'round trips' | 'rows' | 'frames' | 'requests' | '% of a core' | '%';

export interface Budget {
  /** As DESIGN §8 words it, e.g. "≤ 1 s". */
  readonly text: string;
  /** In the figure's unit; absent when §8 names no number for this figure. */
  readonly limit?: number;
  /** Whether smaller is better (default) or larger. */
  readonly better?: 'lower' | 'higher';
  /** Which statistic the budget bounds: the median (default) or the p95 (a budget worded "p95"). */
  readonly statistic?: 'median' | 'p95';
}

export interface FigureSpec {
  /** Stable id, e.g. "2.cold-first50-api". */
  readonly key: string;
  /** The item of issue 6 it answers (1–12), or 13–15 for issue 12's scale figures (one node, failover, PostgreSQL). */
  readonly item: number;
  readonly what: string;
  readonly unit: Unit;
  readonly budget: Budget;
  /** Browser figures are taken at every CPU rate; gateway and wire figures at 1× only. */
  readonly browser?: boolean;
}

export interface Figure extends FigureSpec {
  readonly status: 'measured' | 'not-measurable';
  /** Per CPU rate ("1" and, for browser figures, "4"). */
  readonly results: Partial<Record<`${CpuRate}`, Summary>>;
  readonly note: string;
  /** Extra numbers a reader may want (profiles, byte counts …). */
  readonly details?: Record<string, unknown>;
}

export interface ScenarioContext {
  readonly env: BenchEnv;
  /** Whether the quick mode (fewer runs, for trying the harness) is on. */
  readonly quick: boolean;
  /** Take CPU profiles of the gateway even when a figure is within budget. */
  readonly profileAlways: boolean;
  /** Where this run writes profiles and other artefacts. */
  readonly artefactsDir: string;
  /** Milliseconds left of the run's time budget. */
  timeLeftMs(): number;
  progress(line: string): void;
  /** Records a measured figure (samples in the figure's unit, per CPU rate). */
  record(spec: FigureSpec, samples: Partial<Record<`${CpuRate}`, readonly number[]>>, note: string, details?: Record<string, unknown>): void;
  /** Records a figure that cannot be taken yet, with the reason. */
  unmeasurable(spec: FigureSpec, why: string): void;
}

export interface Scenario {
  readonly id: string;
  readonly title: string;
  /** Rough seconds at full repetitions, for the plan printed at the start. */
  readonly estimateSec: number;
  /** A scale scenario (issue 12: hundreds of accounts, a cluster): minutes each, so it runs with --scale or when named in --only. */
  readonly scale?: boolean;
  /** Figures it reports; listed as unmeasured if the scenario fails before recording them. */
  readonly figures: readonly FigureSpec[];
  run(ctx: ScenarioContext): Promise<void>;
}

/** Runs `fn` `runs` times (fewer if the run's time budget is short), returning the samples. */
export async function repeat(
  ctx: ScenarioContext,
  label: string,
  runs: number,
  fn: (index: number) => Promise<number>,
  options: { minRuns?: number; reserveMs?: number } = {},
): Promise<number[]> {
  const samples: number[] = [];
  const minRuns = options.minRuns ?? Math.min(3, runs);
  const started = performance.now();
  for (let index = 0; index < runs; index++) {
    const perRun = index === 0 ? 0 : (performance.now() - started) / index;
    if (index >= minRuns && ctx.timeLeftMs() - (options.reserveMs ?? 0) < perRun * 1.5) {
      ctx.progress(`${label}: stopping after ${index} runs to stay within the time budget`);
      break;
    }
    samples.push(await fn(index));
  }
  return samples;
}
