/**
 * The statistics every benchmark figure is reported with. Percentiles interpolate
 * linearly between the two nearest ranks (Hyndman & Fan type 7, the default of numpy,
 * R and spreadsheets): with few runs a p95 lies between the two slowest, not on the
 * slowest alone.
 */

export interface Summary {
  readonly runs: number;
  readonly median: number;
  readonly p95: number;
  readonly min: number;
  readonly max: number;
  /** Every sample in the order it was taken (rounded for the report). */
  readonly samples: readonly number[];
}

/** The q-quantile (0 ≤ q ≤ 1) of the samples, linear between ranks. Throws on no samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new Error('quantile of no samples');
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile ${q} is outside 0..1`);
  if (samples.some((value) => !Number.isFinite(value))) throw new Error('quantile of a non-finite sample');
  const sorted = [...samples].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below]!;
  const high = sorted[above]!;
  return low + (high - low) * (position - below);
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);
export const p95 = (samples: readonly number[]): number => quantile(samples, 0.95);

/** Rounds to a sensible precision for a report: 3 significant digits, at least whole-number precision for big values. */
export function round(value: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, 2 - magnitude);
  return Number(value.toFixed(Math.min(decimals, 6)));
}

export function summarize(samples: readonly number[]): Summary {
  return {
    runs: samples.length,
    median: round(median(samples)),
    p95: round(p95(samples)),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    samples: samples.map(round),
  };
}
