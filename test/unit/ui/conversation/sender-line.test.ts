import { expect, test } from 'vitest';
import { senderLine } from '../../../../src-ui/conversation/message-format';

test('the whole sender for the header tooltip: "Name <address>", or the address alone', () => {
  expect(senderLine({ name: ' The Atelier Weekly Digest ', email: 'news@atelier.example' })).toBe('The Atelier Weekly Digest <news@atelier.example>');
  expect(senderLine({ name: '', email: 'bob@kite.test' })).toBe('bob@kite.test');
});
