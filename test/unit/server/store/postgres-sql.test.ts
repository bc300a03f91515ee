import { describe, expect, test } from 'vitest';
import { MIGRATIONS } from '../../../../src-server/store/migrations';
import { POSTGRES_MIGRATIONS } from '../../../../src-server/store/migrations-postgres';
import { numbered } from '../../../../src-server/store/postgres-store';

describe('numbered: ? placeholders for PostgreSQL', () => {
  test('each ? becomes $1, $2 … in order', () => {
    expect(numbered('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toBe('SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)');
  });
  test('a ? inside a string, a quoted name or a comment stays', () => {
    expect(numbered(`SELECT '?', 'it''s ?', "odd?name" FROM t -- why?\nWHERE a = ?`)).toBe(`SELECT '?', 'it''s ?', "odd?name" FROM t -- why?\nWHERE a = $1`);
  });
});

test('both engines know the same schema versions', () => {
  expect(POSTGRES_MIGRATIONS.length).toBe(MIGRATIONS.length);
});
