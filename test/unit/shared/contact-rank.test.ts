import { expect, test } from 'vitest';
import { decayedRank, rankGrowth, rankSightings, RANK_HALF_LIFE_MS } from '../../../shared/contact-rank';

const DAY = 24 * 60 * 60 * 1000;
const now = Date.UTC(2026, 10, 29);
const person = (email: string, name = '') => ({ name, email });
const message = (fields: { from?: string[]; to?: string[]; cc?: string[]; at: number }) => ({
  from: (fields.from ?? []).map((email) => person(email)),
  to: (fields.to ?? []).map((email) => person(email)),
  cc: (fields.cc ?? []).map((email) => person(email)),
  date: fields.at,
  receivedAt: fields.at,
});

/** Adds a mailbox's messages up as the engine's tally does. */
function ranks(messages: { sent: boolean; fields: Parameters<typeof message>[0] }[]) {
  const compose = new Map<string, number>();
  const search = new Map<string, number>();
  for (const { sent, fields } of messages) {
    for (const sighting of rankSightings(message(fields), { sent, own: new Set(['me@kite.test']) })) {
      compose.set(sighting.address.email, (compose.get(sighting.address.email) ?? 0) + sighting.compose);
      search.set(sighting.address.email, (search.get(sighting.address.email) ?? 0) + sighting.search);
    }
  }
  return { compose: (email: string) => decayedRank(compose.get(email) ?? 0, now), search: (email: string) => decayedRank(search.get(email) ?? 0, now) };
}

test('a sighting halves in weight every 60 days', () => {
  expect(rankGrowth(now) / rankGrowth(now - RANK_HALF_LIFE_MS)).toBeCloseTo(2, 10);
  expect(decayedRank(rankGrowth(now - 120 * DAY), now)).toBeCloseTo(0.25, 10);
});

test('writing to someone weighs more than hearing from them, for the composer', () => {
  const r = ranks([
    { sent: true, fields: { from: ['me@kite.test'], to: ['ann@kite.test'], at: now - DAY } },
    { sent: false, fields: { from: ['bob@kite.test'], to: ['me@kite.test'], at: now - DAY } },
    { sent: false, fields: { from: ['bob@kite.test'], to: ['me@kite.test'], at: now - DAY } },
  ]);
  expect(r.compose('ann@kite.test')).toBeGreaterThan(r.compose('bob@kite.test'));
  // Search ranks people by how much mail involves them: Bob's two beat Ann's one.
  expect(r.search('bob@kite.test')).toBeGreaterThan(r.search('ann@kite.test'));
  // One's own address is never ranked.
  expect(r.compose('me@kite.test')).toBe(0);
});

test('recency wins over an old habit: five mails a year ago rank below one this week', () => {
  const r = ranks([
    ...Array.from({ length: 5 }, () => ({ sent: true, fields: { to: ['old@kite.test'], at: now - 365 * DAY } })),
    { sent: true, fields: { to: ['new@kite.test'], at: now - 3 * DAY } },
  ]);
  expect(r.compose('new@kite.test')).toBeGreaterThan(r.compose('old@kite.test'));
});

test('Cc counts less than To, an address twice on one message counts once, names kept and addresses lowercased', () => {
  const [to, cc] = rankSightings(
    { from: [], to: [person('Ann@Kite.test', ' Ann Lee ')], cc: [person('cy@kite.test'), person('ann@kite.test')], date: now, receivedAt: now },
    { sent: true },
  );
  expect(to).toMatchObject({ address: { email: 'ann@kite.test', name: 'Ann Lee' }, sent: true });
  expect(cc!.compose).toBe(to!.compose / 2);
  expect(rankSightings({ from: [], to: [person('x@kite.test')], cc: [person('x@kite.test')], date: now, receivedAt: now }, { sent: true })).toHaveLength(1);
  expect(rankSightings({ from: [person('undisclosed-recipients:;')], to: [], cc: [], date: now, receivedAt: now }, { sent: false })).toEqual([]);
});
