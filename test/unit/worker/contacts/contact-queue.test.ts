/** The order of waiting address book changes (contacts-service.ts `queue`): one request per run of edits, never folding into the one the sender may have on the wire. */
import { expect, test } from 'vitest';
import { queue } from '../../../../src-worker/contacts/contacts-service';
import type { ContactOp } from '../../../../src-worker/mail-store/contact-cards';

const put = (id: string, firstName: string): ContactOp => ({ kind: 'put', id, card: { firstName, lastName: '', company: '', notes: '', emails: [], phones: [] } });
const names = (ops: readonly ContactOp[]) => ops.map((op) => (op.kind === 'put' ? `${op.id}:${op.card.firstName}` : `${op.kind}:${op.ids.join('+')}`));

test('a put after a put of the same card replaces it, but never the first waiting change (it may be on the wire)', () => {
  let ops = queue([], put('a', 'Ann'));
  ops = queue(ops, put('a', 'Anne'));
  expect(names(ops)).toEqual(['a:Ann', 'a:Anne']);
  ops = queue(ops, put('a', 'Annie'));
  expect(names(ops)).toEqual(['a:Ann', 'a:Annie']);
});

test('changes keep their order; other cards and other kinds are never folded', () => {
  let ops = queue([], { kind: 'delete', ids: ['z'] });
  ops = queue(ops, put('a', 'Ann'));
  ops = queue(ops, put('b', 'Bo'));
  ops = queue(ops, put('b', 'Bob'));
  ops = queue(ops, { kind: 'merge', ids: ['a', 'b'] });
  ops = queue(ops, put('a', 'Ann Bob'));
  ops = queue(ops, { kind: 'delete', ids: ['a'] });
  ops = queue(ops, { kind: 'restore', ids: ['a'] });
  expect(names(ops)).toEqual(['delete:z', 'a:Ann', 'b:Bob', 'merge:a+b', 'a:Ann Bob', 'delete:a', 'restore:a']);
});
