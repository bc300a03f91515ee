import { expect, test } from 'vitest';
import { orderSuggestions } from '../../../../src-worker/queries/suggestion-order';

const candidate = (email: string, rank: number, lastAt = 0) => ({ address: { name: '', email }, rank, lastAt });

test('people come before likely non-human addresses, however often those wrote', () => {
  const ordered = orderSuggestions(
    [candidate('notifications@github.com', 900), candidate('nora@example.com', 3), candidate('no-reply@bank.example', 50), candidate('noel@example.com', 7)],
    10,
  );
  expect(ordered.map((address) => address.email)).toEqual(['noel@example.com', 'nora@example.com', 'notifications@github.com', 'no-reply@bank.example']);
});

test('within each group: rank, then the last time seen; the limit cuts after ordering', () => {
  const ordered = orderSuggestions([candidate('a@x.example', 1, 5), candidate('b@x.example', 1, 9), candidate('c@x.example', 2, 0)], 2);
  expect(ordered.map((address) => address.email)).toEqual(['c@x.example', 'b@x.example']);
});

test('the last ties are broken by the address, whatever order the candidates came in', () => {
  const ordered = (list: ReturnType<typeof candidate>[]) => orderSuggestions(list, 3).map((address) => address.email);
  const list = [candidate('b@x.example', 1, 5), candidate('a@x.example', 1, 5), candidate('c@x.example', 1, 5)];
  expect(ordered(list)).toEqual(['a@x.example', 'b@x.example', 'c@x.example']);
  expect(ordered([...list].reverse())).toEqual(['a@x.example', 'b@x.example', 'c@x.example']);
});
