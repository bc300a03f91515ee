/** The address book's rules every tier shares (shared/contacts.ts, address-equivalence.ts): the spec's address equivalence, duplicates, merge, the avatar's hue. */
import { expect, test } from 'vitest';
import { addressKey, sameAddress } from '../../../shared/address-equivalence';
import { contactDisplayName, contactHue, duplicateGroups, mergeCards, uniqueAddresses } from '../../../shared/contacts';

const card = (id: string, emails: string[], names: { firstName?: string; lastName?: string; company?: string } = {}) => ({ id, emails, firstName: names.firstName ?? '', lastName: names.lastName ?? '', company: names.company ?? '' });

test('addresses are one mailbox ignoring case and a +suffix of the local part, nothing else', () => {
  expect(addressKey(' Ann+News@Kite.TEST ')).toBe('ann@kite.test');
  expect(sameAddress('ann@kite.test', 'ANN+x+y@kite.test')).toBe(true);
  expect(sameAddress('ann@kite.test', 'a.nn@kite.test')).toBe(false); // dots are not Gmail's rule here
  expect(sameAddress('ann@kite.test', 'ann@kite.example')).toBe(false);
  expect(addressKey('+only@kite.test')).toBe('+only@kite.test'); // a local part that is all suffix stays
  expect(uniqueAddresses(['Ann@kite.test', 'ann+work@kite.test', 'bo@kite.test'])).toEqual(['Ann@kite.test', 'bo@kite.test']);
});

test('duplicates: cards sharing an address by the equivalence, chained into one group; a lone card is none', () => {
  const groups = duplicateGroups([card('a', ['ann@kite.test']), card('b', ['Ann+x@Kite.test', 'bo@kite.test']), card('c', ['bo+y@kite.test']), card('d', ['dee@kite.test'])]);
  expect(groups.map((group) => group.map((entry) => entry.id))).toEqual([['a', 'b', 'c']]);
});

test('merge keeps the first card\'s names, then the first found, every address and phone once, the notes joined', () => {
  const merged = mergeCards([
    { firstName: 'Ann', lastName: '', company: '', emails: ['ann@kite.test'], phones: ['+49 1'], notes: 'Met in Bonn' },
    { firstName: 'Annie', lastName: 'Lee', company: 'Kite', emails: ['ANN+w@kite.test', 'ann@lee.test'], phones: ['+49 1', '+49 2'], notes: 'Likes tea' },
  ]);
  expect(merged).toEqual({ firstName: 'Ann', lastName: 'Lee', company: 'Kite', emails: ['ann@kite.test', 'ann@lee.test'], phones: ['+49 1', '+49 2'], notes: 'Met in Bonn\n\nLikes tea' });
});

test('the avatar hue is the sum of the shown name\'s character codes modulo 360 (spec §9): names, else company, else the address', () => {
  const sum = (text: string) => [...text].reduce((total, char) => total + char.charCodeAt(0), 0) % 360;
  expect(contactHue(card('a', ['ann@kite.test'], { firstName: 'Ann', lastName: 'Lee' }))).toBe(sum('Ann Lee'));
  expect(contactDisplayName(card('b', ['x@kite.test'], { company: 'Kite GmbH' }))).toBe('Kite GmbH');
  expect(contactHue(card('b', ['x@kite.test'], { company: 'Kite GmbH' }))).toBe(sum('Kite GmbH'));
  expect(contactHue(card('c', ['zoe@kite.test']))).toBe(sum('zoe@kite.test'));
  expect(contactHue(card('d', [], { firstName: 'Вера' }))).toBe(sum('Вера'));
});
