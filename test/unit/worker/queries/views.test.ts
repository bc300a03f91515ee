import { describe, expect, test } from 'vitest';
import type { Folder, ThreadSummary } from '../../../../shared/api/mail';
import { MAX_WINDOW } from '../../../../src-worker/queries/list-subscriptions';
import { fitToBudget, orderFolders, toThreadRow } from '../../../../src-worker/queries/views';

describe('views for tabs', () => {
  test('a full window of rows stays under the ~100 KB message budget, however large the threads', () => {
    const huge: ThreadSummary = {
      id: '1',
      subject: 'S'.repeat(5_000),
      participants: Array.from({ length: 400 }, (_, i) => ({ name: `Person ${i}`, email: `person${i}@example.com` })),
      snippet: 'x'.repeat(10_000),
      lastMessageAt: 1,
      messageCount: 400,
      unreadCount: 3,
      starred: false,
      hasAttachments: true,
      folderIds: ['1', '2'],
      messageIds: Array.from({ length: 400 }, (_, i) => String(i + 1)),
    };
    const rows = Array.from({ length: MAX_WINDOW }, (_, i) => toThreadRow('7', { summary: { ...huge, id: String(i + 1) }, server: null }));
    expect(rows[0]!.participants.map((p) => p.name)).toEqual(['Person 396', 'Person 397', 'Person 398', 'Person 399']); // the newest senders
    expect(new TextEncoder().encode(JSON.stringify(fitToBudget(rows))).length).toBeLessThan(100_000);
    // Ordinary rows are sent as they are.
    const ordinary = rows.slice(0, 150).map((row) => ({ ...row, subject: 'Lunch on Friday?', snippet: 'Shall we meet at noon near the station', participants: row.participants.slice(0, 2) }));
    expect(fitToBudget(ordinary)).toBe(ordinary);
  });

  test('folders: special ones first in their usual order, then the rest by name, children under parents', () => {
    const folder = (id: string, name: string, specialUse: Folder['specialUse'] = null, parentId: string | null = null): Folder => ({ id, path: name, name, parentId, specialUse, total: 0, unread: 0 });
    const ordered = orderFolders('7', [
      folder('1', 'Projects'),
      folder('2', 'Trash', 'trash'),
      folder('3', '2026', null, '1'),
      folder('4', 'INBOX', 'inbox'),
      folder('5', 'Archive', 'archive'),
      folder('6', 'Newsletters'),
      folder('7', 'Sent', 'sent'),
    ]);
    expect(ordered.map((entry) => [entry.name, entry.depth])).toEqual([
      ['INBOX', 0],
      ['Sent', 0],
      ['Archive', 0],
      ['Trash', 0],
      ['Newsletters', 0],
      ['Projects', 0],
      ['2026', 1],
    ]);
  });
});
