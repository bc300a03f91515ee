import { expect, test } from 'vitest';
import { sendProblem } from '../../../../src-ui/composer/send-checks';
import { chipFromAddress } from '../../../../src-ui/composer/recipients';

const good = chipFromAddress({ name: 'Ann', email: 'ann@example.com' });
const bad = { ...chipFromAddress({ name: '', email: 'ann@' }), valid: false };

test('no recipient comes first, then an invalid address, then uploads still going, then failed ones', () => {
  expect(sendProblem([], [{ status: 'uploading' }])?.kind).toBe('noRecipient');
  expect(sendProblem([good, bad], [{ status: 'uploading' }])).toEqual({ kind: 'invalidAddress', text: expect.stringContaining('“ann@”') });
  expect(sendProblem([good], [{ status: 'failed' }, { status: 'uploading' }])?.text).toBe('Wait until the attachments have finished uploading.');
  expect(sendProblem([good], [{ status: 'failed' }])?.text).toBe('Some attachments did not upload. Retry or remove them first.');
  expect(sendProblem([good], [{ status: 'done' }, { status: 'rejected' }])).toBeNull();
});
