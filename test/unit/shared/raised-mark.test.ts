/**
 * A fired snooze, reminder or follow-up (issue 15) on the rows: the summary sorts at the
 * moment it fired and keeps its mark through the engine's rows (stored, read back, as a list
 * row); a screen reader hears the mark, and "Sent late" for a message that left late.
 */
import { expect, test } from 'vitest';
import type { ThreadSummary } from '../../../shared/api/mail';
import { withRaisedMark } from '../../../shared/raised-mark';
import { leftLate, SENT_LATE_KEYWORD } from '../../../shared/send-time';
import type { ThreadRow } from '../../../shared/worker-mail-api';
import { threadFromRow, threadToRow } from '../../../src-worker/mail-store/mail-rows';
import { toThreadRow } from '../../../src-worker/queries/views';
import { rowAccessibleName } from '../../../src-ui/thread-list/ThreadRowView';

const summary: ThreadSummary = {
  id: 't1', subject: 'Lunch', participants: [], snippet: 'Hi', lastMessageAt: 1_000, messageCount: 1, unreadCount: 0, starred: false, hasAttachments: false, folderIds: ['1'], messageIds: ['9'],
};

test('a raised thread sorts at the moment it fired, never earlier than its newest message, and keeps its mark as a stored and a list row', () => {
  const mark = { timerId: '5', kind: 'followUp' as const, at: 9_000 };
  expect(withRaisedMark(summary, undefined)).toBe(summary);
  const raised = withRaisedMark(summary, mark);
  expect(raised).toMatchObject({ lastMessageAt: 9_000, raised: mark });
  expect(withRaisedMark({ ...summary, lastMessageAt: 20_000 }, mark).lastMessageAt).toBe(20_000);
  const stored = threadFromRow(threadToRow('a1', { summary: raised, server: null }));
  expect(stored.summary.raised).toEqual(mark);
  expect(stored.summary.lastMessageAt).toBe(9_000);
  expect(toThreadRow('a1', stored).raised).toEqual(mark);
  expect('raised' in threadFromRow(threadToRow('a1', { summary, server: null })).summary).toBe(false);
});

test('the row says its mark and "Sent late", in English and German', () => {
  const row = { ...toThreadRow('a1', { summary, server: null }), raised: { timerId: '5', kind: 'followUp' } } as ThreadRow;
  expect(rowAccessibleName(row, 'Bob', 'Nov 21')).toBe('Bob, Lunch, Hi, Nov 21, No reply yet');
  expect(rowAccessibleName({ ...row, raised: undefined, keywords: [SENT_LATE_KEYWORD] } as ThreadRow, 'Bob', 'Nov 21')).toBe('Bob, Lunch, Hi, Nov 21, Sent late');
  expect(rowAccessibleName({ ...row, raised: { timerId: '6', kind: 'remind', at: 1 } }, 'Bob', '21. Nov.', null, 'de')).toContain('Erinnerung');
});

test('late means a scheduled send that left more than five minutes after its time', () => {
  expect(leftLate({ scheduled: true, sendAt: 0, sentAt: 5 * 60_000 })).toBe(false);
  expect(leftLate({ scheduled: true, sendAt: 0, sentAt: 5 * 60_000 + 1 })).toBe(true);
  expect(leftLate({ scheduled: false, sendAt: 0, sentAt: 3600_000 })).toBe(false);
  expect(leftLate({ scheduled: true, sendAt: 0, sentAt: null })).toBe(false);
});
