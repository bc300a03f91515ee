/** Thread rows for list tests: row n of account 1001, newer the smaller n. */
import type { ThreadRow } from '../../../../shared/worker-mail-api';

export const threadRow = (n: number, over: Partial<ThreadRow> = {}): ThreadRow => ({
  key: `1001:${n}`,
  accountId: '1001',
  threadId: String(n),
  subject: `S${n}`,
  participants: [],
  snippet: '',
  lastMessageAt: 1_000 - n,
  messageCount: 1,
  unreadCount: 0,
  starred: false,
  hasAttachments: false,
  folderIds: ['1001'],
  pending: false,
  ...over,
});
