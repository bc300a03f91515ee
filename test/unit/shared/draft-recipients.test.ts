/**
 * A thread of drafts only names whom its newest draft is to, by the same rule in the engine
 * (summarizeThread), the gateway (toThreadSummary) and the engine's stored rows; a thread
 * with any message that is not a draft is a conversation and has none. The row then reads
 * "To: Bob" after a Draft label, never "me".
 */
import { expect, test } from 'vitest';
import type { MessageMeta } from '../../../shared/api/mail';
import type { ThreadRow } from '../../../shared/worker-mail-api';
import { draftRecipients } from '../../../shared/draft-recipients';
import { toThreadRow } from '../../../src-worker/queries/views';
import { threadFromRow, threadToRow } from '../../../src-worker/mail-store/mail-rows';
import { summarizeThread } from '../../../src-worker/mail-store/thread-summary';
import { draftRecipientsLabel, rowNamesLabel } from '../../../src-ui/thread-list/row-format';
import { rowAccessibleName } from '../../../src-ui/thread-list/ThreadRowView';

const me = { name: 'Alice', email: 'alice@tern.test' };
const bob = { name: 'Bob Stone', email: 'bob@kite.test' };
const carol = { name: 'Carol Ng', email: 'carol@kite.test' };

const meta = (id: string, fields: Partial<MessageMeta>): MessageMeta => ({
  id,
  threadId: 't1',
  folderId: '2',
  messageIdHeader: null,
  subject: 'Plans',
  from: [me],
  to: [],
  cc: [],
  replyTo: [],
  date: Number(id) * 1000,
  receivedAt: Number(id) * 1000,
  unread: false,
  starred: false,
  answered: false,
  draft: true,
  keywords: [],
  size: 100,
  attachments: [],
  snippet: 'Hi',
  ...fields,
});

test('drafts only: the newest draft’s To then Cc; any other message makes it a conversation', () => {
  expect(draftRecipients([meta('1', { to: [carol] }), meta('2', { to: [bob], cc: [carol] })])).toEqual([bob, carol]);
  expect(draftRecipients([meta('1', { from: [bob], to: [me], draft: false }), meta('2', { to: [bob] })])).toBeUndefined();
  expect(draftRecipients([])).toBeUndefined();
});

test('the engine summarises a lone draft with its recipients, keeps them in its rows, and hands them to the list', () => {
  const summary = summarizeThread('t1', [meta('1', { to: [bob] })])!;
  expect(summary.draftTo).toEqual([bob]);
  expect(summary.participants).toEqual([me]);
  const stored = threadFromRow(threadToRow('a1', { summary, server: null }));
  expect(stored.summary.draftTo).toEqual([bob]);
  expect(toThreadRow('a1', stored).draftTo).toEqual([bob]);
  // A conversation with a draft reply has none, stored or not.
  const conversation = summarizeThread('t1', [meta('1', { from: [bob], to: [me], draft: false }), meta('2', { to: [bob] })])!;
  expect('draftTo' in conversation).toBe(false);
  expect('draftTo' in threadFromRow(threadToRow('a1', { summary: conversation, server: null })).summary).toBe(false);
});

test('a draft row reads "To: Bob Stone" after Draft, not "me"; other rows name their senders', () => {
  const own = new Set([me.email]);
  const row = { participants: [me], messageCount: 1, draftTo: [bob] } as Pick<ThreadRow, 'participants' | 'messageCount' | 'draftTo'>;
  expect(rowNamesLabel(row, own)).toBe('To: Bob Stone');
  expect(draftRecipientsLabel([bob, carol], own)).toBe('To: Bob, Carol');
  expect(draftRecipientsLabel([], own)).toBe('To: (no recipients)');
  expect(rowNamesLabel({ participants: [me], messageCount: 1 }, own)).toBe('me');
  const full = { ...row, key: 'a1:t1', accountId: 'a1', threadId: 't1', subject: 'Plans', snippet: 'Hi', lastMessageAt: 0, unreadCount: 0, starred: false, hasAttachments: false, folderIds: ['2'], pending: false } as ThreadRow;
  expect(rowAccessibleName(full, rowNamesLabel(full, own), 'Nov 21')).toBe('Draft, To: Bob Stone, Plans, Hi, Nov 21');
});
