import { describe, expect, it } from 'vitest';
import { verdict } from '../../bench/lib/report';
import type { Figure } from '../../bench/lib/scenario';
import { summarize } from '../../bench/lib/stats';

const figure = (budget: Figure['budget'], samples: number[]): Figure => ({
  key: 'x',
  item: 13,
  what: 'x',
  unit: 'ms',
  budget,
  status: 'measured',
  results: { '1': summarize(samples) },
  note: '',
});

describe('benchmark verdicts', () => {
  // Median 500, p95 about 1,450: within a median budget of 1 s, over a p95 one.
  const samples = [400, 450, 500, 550, 1500];

  it('judges the median unless the budget bounds the p95', () => {
    expect(verdict(figure({ text: '≤ 1 s', limit: 1000 }, samples))).toBe('within');
    expect(verdict(figure({ text: '≤ 1 s p95', limit: 1000, statistic: 'p95' }, samples))).toBe('OVER');
    expect(verdict(figure({ text: '≤ 2 s p95', limit: 2000, statistic: 'p95' }, samples))).toBe('within');
  });

  it('judges "at least" budgets from above and has no verdict without a limit', () => {
    expect(verdict(figure({ text: '≥ 70 %', limit: 70, better: 'higher' }, [60, 65, 80]))).toBe('OVER');
    expect(verdict(figure({ text: '≥ 70 %', limit: 70, better: 'higher' }, [72, 75, 80]))).toBe('within');
    expect(verdict(figure({ text: 'none' }, samples))).toBe('—');
  });
});
