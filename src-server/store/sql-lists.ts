import type { SqlValue } from './sql';

/** Ids bound per statement: under both engines' limits on parameters (SQLite 32766, PostgreSQL 65535). */
export const IN_LIST_CHUNK = 500;

/** `?, ?, …` for an IN list of `count` values (never empty: the callers skip an empty list). */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** Runs `query` on each slice of at most IN_LIST_CHUNK values and joins the rows. */
export async function inChunks<Row>(values: readonly SqlValue[], query: (chunk: readonly SqlValue[]) => Promise<Row[]>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let start = 0; start < values.length; start += IN_LIST_CHUNK) rows.push(...(await query(values.slice(start, start + IN_LIST_CHUNK))));
  return rows;
}
