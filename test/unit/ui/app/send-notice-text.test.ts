/** What a send notice says: the message by its subject, what happened, the catalogue's sentence and the mail server's reply. */
import { expect, test } from 'vitest';
import type { SendNotice } from '../../../../shared/worker-mail-api';
import { sendNoticeText } from '../../../../src-ui/app/send-notice-text';

const notice = (over: Partial<SendNotice>): SendNotice => ({ noticeId: 'n-1', accountId: '7', kind: 'notSent', draftId: 'd-1', subject: 'Plans', at: 1, ...over });

test("not sent: the catalogue's sentence whatever the gateway's words, and the server's reply apart", () => {
  const text = sendNoticeText(notice({ error: { name: 'SendFailed', message: 'Message could not be sent', detail: '550 5.1.1 rejected' } }));
  expect(text).toEqual({
    title: '“Plans” was not sent',
    message: 'Message could not be sent: the details are invalid or the mail server is unreachable. Your draft is kept.',
    reply: '550 5.1.1 rejected',
  });
});

test('may have been sent: says why it is not known, and never that it failed', () => {
  const text = sendNoticeText(notice({ kind: 'maybeSent', subject: '' }));
  expect(text.title).toBe('Your message (no subject) may have been sent');
  expect(text.message).toContain('Check Sent');
  expect(text.message).not.toMatch(/not sent|failed/i);
});

test('sent without a Sent copy: sent, and what is missing', () => {
  expect(sendNoticeText(notice({ kind: 'notFiled' }))).toEqual({ title: '“Plans” was sent', message: 'But no copy could be saved in your Sent folder.', reply: undefined });
});
