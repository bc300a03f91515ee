/** The composer's From choice and a reply's identity (pure). */
import { expect, test } from 'vitest';
import { identityForReply, ownIdentity } from '../../../../shared/identities';
import { fromKey, initialFrom } from '../../../../src-ui/composer/from-choices';

const own = { accountId: '1', identityId: 'own', name: 'Alice', email: 'alice@tern.test', isDefault: false };
const work = { accountId: '1', identityId: 'work', name: 'Alice at Work', email: 'alice.work@tern.test', isDefault: true };
const bob = { accountId: '2', identityId: 'own', name: 'Bob', email: 'bob@kite.test', isDefault: true };

test('a composer opens from the identity it was given, else the account’s default, else its first; keys tell identities apart', () => {
  expect(initialFrom([own, work, bob], { accountId: '1', from: { name: '', email: 'Alice@Tern.test' } })).toBe(own);
  expect(initialFrom([own, work, bob], { accountId: '1' })).toBe(work);
  expect(initialFrom([own, work, bob], { accountId: '1', from: { name: '', email: 'bob@kite.test' } })).toBe(work);
  expect(initialFrom([bob], { accountId: '1' })).toBeUndefined();
  expect(new Set([own, work, bob].map(fromKey)).size).toBe(3);
  expect(fromKey({ accountId: '7' })).toBe('7');
});

test('a reply comes from the identity the mail was addressed to (To before Cc), else the default', () => {
  const identities = [{ ...ownIdentity('alice@tern.test'), isDefault: false }, { ...ownIdentity('alice.work@tern.test'), id: 'work', isDefault: true }];
  expect(identityForReply(identities, ['someone@kite.test', 'ALICE@tern.test'])?.email).toBe('alice@tern.test');
  expect(identityForReply(identities, ['alice.work@tern.test', 'alice@tern.test'])?.id).toBe('work');
  expect(identityForReply(identities, ['list@kite.test'])?.id).toBe('work');
  // A +suffix is another address to the submission server: not the identity.
  expect(identityForReply(identities, ['alice+news@tern.test'])?.id).toBe('work');
});
