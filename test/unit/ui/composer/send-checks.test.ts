import { expect, test } from 'vitest';
import { sendProblem } from '../../../../src-ui/composer/send-checks';
import { chipFromAddress } from '../../../../src-ui/composer/recipients';
import { format } from '../../../../shared/strings';
import type { Translate } from '../../../../src-ui/kit/i18n';

const t: Translate = (id, values) => format('en', id, values);

const good = chipFromAddress({ name: 'Ann', email: 'ann@example.com' });
const bad = { ...chipFromAddress({ name: '', email: 'ann@' }), valid: false };

test('no recipient comes first, then an invalid address, then uploads still going, then failed ones', () => {
  expect(sendProblem([], [{ status: 'uploading' }], t)?.kind).toBe('noRecipient');
  expect(sendProblem([good, bad], [{ status: 'uploading' }], t)).toEqual({ kind: 'invalidAddress', text: expect.stringContaining('“ann@”') });
  expect(sendProblem([good], [{ status: 'failed' }, { status: 'uploading' }], t)?.text).toBe('Wait until the attachments have finished uploading.');
  expect(sendProblem([good], [{ status: 'failed' }], t)?.text).toBe('Some attachments did not upload. Retry or remove them first.');
  expect(sendProblem([good], [{ status: 'done' }, { status: 'rejected' }], t)).toBeNull();
});
