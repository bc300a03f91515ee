import { expect, test } from 'vitest';
import { receiptAddress, receiptGoesElsewhere, receiptRefusal } from '../../../shared/read-receipts';

const asked = { 'disposition-notification-to': 'Bob <Bob@Kite.test>' };

test('the receipt address: one address, in angle brackets or bare; anything else is none', () => {
  expect(receiptAddress(asked)).toBe('bob@kite.test');
  expect(receiptAddress({ 'disposition-notification-to': 'bob@kite.test' })).toBe('bob@kite.test');
  expect(receiptAddress({ 'disposition-notification-to': 'not an address' })).toBeNull();
  expect(receiptAddress({ 'disposition-notification-to': 'a@b.test, c@d.test' })).toBeNull();
  expect(receiptAddress({})).toBeNull();
  expect(receiptGoesElsewhere('bob@kite.test', 'BOB@kite.test')).toBe(false);
  expect(receiptGoesElsewhere('spy@evil.test', 'bob@kite.test')).toBe(true);
});

test('never for automatic mail, lists, an answered message or mail in Sent, Drafts, Trash or Spam', () => {
  const inbox = { flags: ['\\Seen'], folderRole: null };
  expect(receiptRefusal({ headers: asked, ...inbox })).toBeNull();
  expect(receiptRefusal({ headers: { ...asked, 'auto-submitted': 'no' }, ...inbox })).toBeNull();
  expect(receiptRefusal({ headers: {}, ...inbox })).toBe('none');
  expect(receiptRefusal({ headers: asked, flags: ['$mdnsent'], folderRole: null })).toBe('already');
  expect(receiptRefusal({ headers: { ...asked, 'auto-submitted': 'auto-replied' }, ...inbox })).toBe('automatic');
  expect(receiptRefusal({ headers: { ...asked, 'list-id': '<kites.kite.test>' }, ...inbox })).toBe('list');
  expect(receiptRefusal({ headers: { ...asked, precedence: 'Bulk' }, ...inbox })).toBe('list');
  expect(receiptRefusal({ headers: { ...asked, precedence: 'first-class' }, ...inbox })).toBeNull();
  for (const role of ['sent', 'drafts', 'trash', 'junk']) expect(receiptRefusal({ headers: asked, flags: [], folderRole: role })).toBe('folder');
  expect(receiptRefusal({ headers: asked, flags: [], folderRole: 'archive' })).toBeNull();
});
