import { expect, test } from 'vitest';
import { orderSuggestions, suggestionCandidates } from '../../../../src-worker/queries/suggestion-order';

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

test('cards and ranked addresses together: the address written to most first after one letter, a card breaks ties, a removed suggestion stays out unless a card holds it', () => {
  const rows = [
    { id: 'ann@kite.test', email: 'ann@kite.test', name: 'Ann Lee', mailComposeRank: 50, last_seen_at: 5 },
    { id: 'amy@kite.test', email: 'amy@kite.test', name: 'Amy', mailComposeRank: 900, last_seen_at: 9 },
    { id: 'alerts@kite.test', email: 'alerts@kite.test', name: 'Alerts', mailComposeRank: 5000, last_seen_at: 9 },
    { id: 'abe@kite.test', email: 'abe@kite.test', name: 'Abe', mailComposeRank: 70, last_seen_at: 1, forgotten: 1 },
    { id: 'al@kite.test', email: 'al@kite.test', name: 'Al', mailComposeRank: 0, last_seen_at: 1, forgotten: 1 },
    // Cards: Al's card keeps him suggested; Zed is found by his company's first letter.
    { id: 'card:1', email: 'al@kite.test', is_personal_contact: 1, card: { id: '1', firstName: 'Al', lastName: 'Bo', emails: ['al@kite.test'], phones: [], company: '', notes: '', createdAt: 0, updatedAt: 0 } },
    { id: 'card:2', email: 'zed@kite.test', is_personal_contact: 1, card: { id: '2', firstName: 'Zed', lastName: '', emails: ['zed@kite.test'], phones: [], company: 'Acme', notes: '', createdAt: 0, updatedAt: 0 } },
    { id: 'card:3', email: 'ann@kite.test', is_personal_contact: 1, deleted: 1, card: { id: '3', firstName: 'Gone', lastName: '', emails: ['ann@kite.test'], phones: [], company: '', notes: '', createdAt: 0, updatedAt: 0 } },
  ];
  const seen = new Map();
  suggestionCandidates(rows, 'a', seen);
  const ordered = orderSuggestions(seen.values(), 10);
  expect(ordered.map((address) => address.email)).toEqual(['amy@kite.test', 'ann@kite.test', 'al@kite.test', 'zed@kite.test', 'alerts@kite.test']);
  expect(ordered.find((address) => address.email === 'al@kite.test')!.name).toBe('Al Bo');
  expect(ordered.find((address) => address.email === 'ann@kite.test')!.name).toBe('Ann Lee');
});
