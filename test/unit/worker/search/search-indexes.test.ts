import { describe, expect, test } from 'vitest';
import type { MessageMeta } from '../../../../shared/api/mail';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { withWrite } from '../../../../src-worker/db/store';
import { INDEX_DELAY_MS, SearchIndexes } from '../../../../src-worker/search/search-indexes';
import { parseSearch } from '../../../../src-worker/search/search-query';
import { createChangeFeed } from '../../../../src-worker/mail-store/change-feed';
import { messageToRow } from '../../../../src-worker/mail-store/mail-rows';
import { writeLabels } from '../../../../src-worker/mail-store/settings-rows';
import { manualClock } from '../mail-test-kit';

const T0 = Date.UTC(2026, 0, 1);

function meta(id: string, subject: string, threadId = `t${id}`): MessageMeta {
  return {
    id,
    threadId,
    folderId: 'inbox',
    messageIdHeader: null,
    subject,
    from: [{ name: 'Ann', email: 'ann@example.com' }],
    to: [],
    cc: [],
    replyTo: [],
    date: T0 + Number(id),
    receivedAt: T0 + Number(id),
    unread: true,
    starred: false,
    answered: false,
    draft: false,
    keywords: [],
    size: 100,
    attachments: [],
    snippet: '',
  };
}

async function setup() {
  const store = await new MemoryDatabases().open('7', MAIL_SCHEMA);
  await withWrite(store, ['Message', 'Category'], async (tx) => {
    await tx.put('Message', messageToRow('7', { meta: meta('1', 'Budget review'), deleted: false, server: null }));
    await tx.put('Category', { id: 'inbox', path: 'INBOX', name: 'INBOX', special_use: 'inbox', total: 0, unread: 0 });
  });
  const changes = createChangeFeed();
  const clock = manualClock();
  const indexes = new SearchIndexes({ open: async () => store, changes, clock });
  await indexes.warm('7');
  const threads = async (query: string) => (await indexes.search({ accountId: '7', query: parseSearch(query) })).threads.map((hit) => hit.threadId);
  return { store, changes, clock, indexes, threads };
}

describe('search indexes kept current from the change feed', () => {
  test('a page’s rows are indexed once pages stop coming, or at once when someone searches', async () => {
    const { changes, clock, indexes, threads } = await setup();
    expect(indexes.size('7')).toBe(1);
    changes.emit({ accountId: '7', threadIds: ['t2'], foldersChanged: false, messages: { put: [{ meta: meta('2', 'Budget draft'), deleted: false, server: null }], removed: [] } });
    clock.advance(INDEX_DELAY_MS - 1);
    changes.emit({ accountId: '7', threadIds: ['t3', 't1'], foldersChanged: false, messages: { put: [{ meta: meta('3', 'Lunch'), deleted: false, server: null }], removed: ['1'] } });
    clock.advance(INDEX_DELAY_MS - 1);
    await Promise.resolve();
    expect(indexes.size('7')).toBe(1); // a backfill is still coming: nothing indexed yet
    clock.advance(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(indexes.size('7')).toBe(2);
    expect(await threads('budget')).toEqual(['t2']);

    // A search does not wait for the delay.
    changes.emit({ accountId: '7', threadIds: ['t4'], foldersChanged: false, messages: { put: [{ meta: meta('4', 'Budget final'), deleted: false, server: null }], removed: [] } });
    expect(await threads('budget')).toEqual(['t4', 't2']);
  });

  test('rows waiting are indexed before a later change that is read back from the table', async () => {
    const { store, changes, threads } = await setup();
    changes.emit({ accountId: '7', threadIds: ['t5'], foldersChanged: false, messages: { put: [{ meta: meta('5', 'Quarterly plan'), deleted: false, server: null }], removed: [] } });
    // A later commit changes that message and names only its thread: its rows are read back from the table.
    await withWrite(store, ['Message'], (tx) => tx.put('Message', messageToRow('7', { meta: { ...meta('5', 'Quarterly plan'), subject: 'Quarterly plan v2' }, deleted: false, server: null })));
    changes.emit({ accountId: '7', threadIds: ['t5'], foldersChanged: false });
    expect(await threads('v2')).toEqual(['t5']); // the later read wins over the page's older row
  });
});

describe('label: over the cached mail', () => {
  test('finds the messages carrying the label’s keyword (names and keywords case aside), -label: leaves them out, a label the account lacks finds nothing', async () => {
    const { store, changes, threads } = await setup();
    await withWrite(store, ['FeatureSettings'], (tx) =>
      writeLabels(tx, { labels: [{ id: '1', keyword: 'work_stuff', name: 'Work Stuff', color: 'blue' }, { id: '2', keyword: 'later', name: 'Later', color: 'red' }], serverKeepsLabels: true }),
    );
    const labelled = (id: string, subject: string, keywords: string[]) => ({ meta: { ...meta(id, subject), keywords }, deleted: false, server: null });
    changes.emit({
      accountId: '7',
      threadIds: ['t2', 't3', 't4'],
      foldersChanged: false,
      messages: { put: [labelled('2', 'Budget plan', ['work_stuff']), labelled('3', 'Budget lunch', ['WORK_STUFF', 'later']), labelled('4', 'Trip', ['later'])], removed: [] },
    });
    expect(await threads('label:"work stuff"')).toEqual(['t3', 't2']);
    expect(await threads('label:"Work Stuff" label:Later')).toEqual(['t3']);
    expect(await threads('budget -label:later')).toEqual(['t2', 't1']);
    expect(await threads('label:Later -label:"Work Stuff"')).toEqual(['t4']);
    // Another account's label: nothing here has it (the search box names a label no account has).
    expect(await threads('label:Elsewhere')).toEqual([]);
    expect(await threads('budget -label:Elsewhere')).toEqual(['t3', 't2', 't1']);
  });
});

describe('senders over the cached mail (Manage senders)', () => {
  test('counts, unread, newest time and the newest unsubscribe offer per address, case aside; Trash and Sent left out; a sender’s threads newest first', async () => {
    const { store, changes, indexes } = await setup();
    await withWrite(store, ['Category'], async (tx) => {
      await tx.put('Category', { id: 'sent', path: 'Sent', name: 'Sent', special_use: 'sent', total: 0, unread: 0 });
      await tx.put('Category', { id: 'trash', path: 'Trash', name: 'Trash', special_use: 'trash', total: 0, unread: 0 });
    });
    const offer = { http: 'https://news.example/u', mailto: null, oneClick: true };
    const from = (id: string, email: string, fields: Partial<MessageMeta> = {}) => ({
      meta: { ...meta(id, `Mail ${id}`), from: [{ name: email.startsWith('news') ? 'News' : '', email }], ...fields },
      deleted: false,
      server: null,
    });
    changes.emit({
      accountId: '7',
      threadIds: [],
      foldersChanged: true,
      messages: {
        put: [
          from('2', 'news@example.com', { unread: false }),
          from('3', 'NEWS@example.com', { unsubscribe: offer }),
          from('4', 'news@example.com', { threadId: 't3' }),
          from('5', 'news@example.com', { folderId: 'trash' }),
          from('6', 'bob@example.com', { folderId: 'sent' }),
          from('7', 'bob@example.com'),
        ],
        removed: [],
      },
    });
    const stats = await indexes.senders('7');
    const news = stats.find((stat) => stat.email === 'news@example.com')!;
    expect(news).toEqual({ email: 'news@example.com', name: 'News', count: 3, unread: 2, lastAt: T0 + 4, unsubscribe: { messageId: '3', offer } });
    expect(stats.find((stat) => stat.email === 'bob@example.com')).toMatchObject({ count: 1, unsubscribe: null });
    expect(stats.find((stat) => stat.email === 'ann@example.com')).toMatchObject({ count: 1 });
    expect((await indexes.senderThreads('7', 'News@Example.com')).map((thread) => thread.threadId)).toEqual(['t3', 't2']);
    expect(await indexes.senderThreads('7', 'nobody@example.com')).toEqual([]);
  });
});
