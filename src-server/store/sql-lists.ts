import type { SqlValue } from './sql';

/** Ids bound per statement: under both engines' limits on parameters (SQLite 32766, PostgreSQL 65535). */
export const IN_LIST_CHUNK = 500;

/** `?, ?, …` for an IN list of `count` values (never empty: the callers skip an empty list). */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * A slice of an IN list padded to the next power of two (or IN_LIST_CHUNK) by repeating its
 * last value, which changes nothing an IN list matches: a statement per length otherwise,
 * hundreds of distinct statements to prepare (and for SQLite to hold) over a big mirror.
 */
export function paddedChunk(chunk: readonly SqlValue[]): readonly SqlValue[] {
  let length = 1;
  while (length < chunk.length) length *= 2;
  length = Math.min(length, IN_LIST_CHUNK);
  if (length <= chunk.length) return chunk;
  const padded = chunk.slice();
  while (padded.length < length) padded.push(chunk[chunk.length - 1]!);
  return padded;
}

/**
 * Runs `query` on each slice of at most IN_LIST_CHUNK values and joins the rows. `query`
 * must use its chunk as an IN list only (see paddedChunk): the chunk may repeat a value.
 */
export async function inChunks<Row>(values: readonly SqlValue[], query: (chunk: readonly SqlValue[]) => Promise<Row[]>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let start = 0; start < values.length; start += IN_LIST_CHUNK) rows.push(...(await query(paddedChunk(values.slice(start, start + IN_LIST_CHUNK)))));
  return rows;
}
