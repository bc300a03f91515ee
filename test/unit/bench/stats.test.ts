import { describe, expect, it } from 'vitest';
import { median, p95, quantile, round, summarize } from '../../bench/lib/stats';

describe('benchmark statistics', () => {
  it('takes the middle sample, or the mean of the two middle ones', () => {
    expect(median([5])).toBe(5);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('interpolates p95 between the nearest ranks (type 7)', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(p95(hundred)).toBeCloseTo(95.05, 10);
    expect(median(hundred)).toBe(50.5);
    // 5 runs: rank (5-1)*0.95 = 3.8 → 80% of the way from the 4th to the 5th sample
    expect(p95([10, 20, 30, 40, 50])).toBeCloseTo(48, 10);
    expect(p95([7])).toBe(7);
  });

  it('does not depend on sample order, and does not reorder the caller\'s array', () => {
    const samples = [9, 1, 5, 3, 7];
    expect(quantile(samples, 0)).toBe(1);
    expect(quantile(samples, 1)).toBe(9);
    expect(samples).toEqual([9, 1, 5, 3, 7]);
  });

  it('refuses no samples, non-finite samples and quantiles outside 0..1', () => {
    expect(() => median([])).toThrow();
    expect(() => median([1, Number.NaN])).toThrow();
    expect(() => quantile([1], 1.5)).toThrow();
  });

  it('summarizes with rounded figures', () => {
    expect(round(1234.567)).toBe(1235);
    expect(round(12.3456)).toBe(12.3);
    expect(round(0.012345)).toBe(0.0123);
    const summary = summarize([12.34, 10.01, 11.5]);
    expect(summary).toMatchObject({ runs: 3, median: 11.5, min: 10, max: 12.3 });
    // rank 2·0.95 = 1.9 → 11.5 + 0.9·(12.34 − 11.5) = 12.256
    expect(summary.p95).toBe(12.3);
  });
});
