// Seeded pseudo-random generator for the mail seeder.
//
// Why not Math.random(): the seeder must be strictly deterministic (same seed
// + same `now` => byte-identical Maildir), so every random choice goes
// through one of these. mulberry32 is tiny, fast (one 32-bit state, a few
// integer ops per draw) and statistically good enough for test data.

export type Weighted<T> = readonly (readonly [T, number])[];

export class Prng {
  private state: number;

  constructor(seed: number) {
    // Mix the seed once so that seeds 1, 2, 3... don't start from nearby states.
    let s = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
    s = Math.imul(s ^ (s >>> 16), 0x85ebca6b) >>> 0;
    s = Math.imul(s ^ (s >>> 13), 0xc2b2ae35) >>> 0;
    this.state = (s ^ (s >>> 16)) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Uniform element of a non-empty array. */
  pick<T>(arr: readonly T[]): T {
    if (arr.length === 0) throw new Error('pick() from an empty array');
    return arr[Math.floor(this.next() * arr.length)] as T;
  }

  /** Element chosen with probability proportional to its weight. */
  weighted<T>(items: Weighted<T>): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [v, w] of items) {
      r -= w;
      if (r < 0) return v;
    }
    const last = items[items.length - 1];
    if (!last) throw new Error('weighted() from an empty list');
    return last[0];
  }

  /** `n` lowercase hex digits (for Message-IDs and MIME boundaries). */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += this.u32().toString(16).padStart(8, '0');
    return out.slice(0, n);
  }

  /** Distinct-ish sample of k elements (k clamped to the array length). */
  sample<T>(arr: readonly T[], k: number): T[] {
    const copy = arr.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, n);
  }
}

/**
 * Precomputed weighted picker: the seeder draws folder / body kind / thread
 * length for every message, so avoid re-summing weights on each draw.
 */
export function weightedPicker<T>(items: Weighted<T>): (rng: Prng) => T {
  const values = items.map(([v]) => v);
  const cum: number[] = [];
  let total = 0;
  for (const [, w] of items) cum.push((total += w));
  if (values.length === 0) throw new Error('weightedPicker() needs items');
  return (rng) => {
    const r = rng.next() * total;
    for (let i = 0; i < cum.length; i++) if (r < (cum[i] as number)) return values[i] as T;
    return values[values.length - 1] as T;
  };
}
