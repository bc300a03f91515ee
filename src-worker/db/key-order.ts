/**
 * IndexedDB's key rules, for the in-memory store: which values are keys and how keys
 * sort (numbers < strings < arrays; arrays element by element, shorter first).
 */
import type { Key, KeyRange } from './store';

export function isValidKey(value: unknown): value is Key {
  if (typeof value === 'number') return !Number.isNaN(value);
  if (typeof value === 'string') return true;
  return Array.isArray(value) && value.every(isValidKey);
}

const rank = (key: Key) => (typeof key === 'number' ? 0 : typeof key === 'string' ? 1 : 2);

export function compareKeys(a: Key, b: Key): number {
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' || typeof a === 'string') {
    return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  }
  const right = b as readonly Key[];
  for (let i = 0; i < Math.min(a.length, right.length); i++) {
    const order = compareKeys(a[i] as Key, right[i] as Key);
    if (order !== 0) return order;
  }
  return a.length - right.length;
}

export function isInRange(key: Key, range: KeyRange | undefined): boolean {
  if (!range) return true;
  if (range.lower !== undefined) {
    const order = compareKeys(key, range.lower);
    if (order < 0 || (order === 0 && range.lowerOpen)) return false;
  }
  if (range.upper !== undefined) {
    const order = compareKeys(key, range.upper);
    if (order > 0 || (order === 0 && range.upperOpen)) return false;
  }
  return true;
}
