import { describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { days, T0 } from '../mirror/mirror-fixture';
import { readingFixture } from './reading-fixture';

/** Every page of a folder's list, following nextBefore. */
async function allPages(fx: Awaited<ReturnType<typeof readingFixture>>, folderId: number, limit: number) {
  const pages: string[][] = [];
  let before: number | undefined;
  for (;;) {
    const page = await fx.threads.page({ accountId: fx.accountId, folderId, before, limit });
    pages.push(page.threads.map((thread) => thread.id));
    if (page.nextBefore === null) return pages;
    before = page.nextBefore;
  }
}

describe('thread list pages', () => {
  test('threads sharing the boundary time all land on one page: no gaps, no repeats', async () => {
    const fx = await readingFixture();
    // 3 distinct times, 4 threads at the middle one: pages of 2 must not split them.
    await fx.add('INBOX', { messageIdHeader: '<a@x>', subject: 'a', date: days(3) });
    for (const name of ['b', 'c', 'd', 'e']) await fx.add('INBOX', { messageIdHeader: `<${name}@x>`, subject: name, date: days(2) });
    await fx.add('INBOX', { messageIdHeader: '<f@x>', subject: 'f', date: days(1) });
    const pages = await allPages(fx, fx.folder('INBOX'), 2);
    expect(pages.map((page) => page.length)).toEqual([5, 1]); // a + the four ties; then f
    const ids = pages.flat();
    expect(new Set(ids).size).toBe(6);
  });

  test('order is by the newest message in the folder, not in the whole thread', async () => {
    const fx = await readingFixture();
    const old = await fx.add('INBOX', { messageIdHeader: '<old@x>', subject: 'old', date: days(1) });
    // The old thread got a reply in Sent later than everything in INBOX…
    await fx.add('Sent', { messageIdHeader: '<reply@x>', inReplyTo: '<old@x>', subject: 'Re: old', date: days(9) });
    const recent = await fx.add('INBOX', { messageIdHeader: '<new@x>', subject: 'new', date: days(5) });
    const page = await fx.threads.page({ accountId: fx.accountId, folderId: fx.folder('INBOX'), before: undefined, limit: 10 });
    // …but in INBOX its time is its INBOX message's.
    expect(page.threads.map((thread) => thread.id)).toEqual([String(fx.threadOf(recent)), String(fx.threadOf(old))]);
    expect(page.threads[1]!.messageCount).toBe(2); // the summary still covers the conversation
    expect(page.nextBefore).toBeNull();
  });

  test('a thread with an INBOX message at or after `before` was on an earlier page and is not repeated', async () => {
    const fx = await readingFixture();
    await fx.add('INBOX', { messageIdHeader: '<t1@x>', subject: 't', date: days(1) });
    await fx.add('INBOX', { messageIdHeader: '<t2@x>', inReplyTo: '<t1@x>', subject: 'Re: t', date: days(6) });
    await fx.add('INBOX', { messageIdHeader: '<u@x>', subject: 'u', date: days(3) });
    const first = await fx.threads.page({ accountId: fx.accountId, folderId: fx.folder('INBOX'), before: undefined, limit: 1 });
    expect(first.nextBefore).toBe(days(6));
    const second = await fx.threads.page({ accountId: fx.accountId, folderId: fx.folder('INBOX'), before: first.nextBefore!, limit: 1 });
    expect(second.threads.map((thread) => thread.subject)).toEqual(['u']);
    expect(second.nextBefore).toBeNull();
  });

  test('count: threads and unread threads of the folder only', async () => {
    const fx = await readingFixture();
    await fx.add('INBOX', { messageIdHeader: '<a@x>', subject: 'a', flags: ['\\Seen'] });
    await fx.add('INBOX', { messageIdHeader: '<b@x>', subject: 'b' });
    await fx.add('INBOX', { messageIdHeader: '<b2@x>', inReplyTo: '<b@x>', subject: 'Re: b' });
    await fx.add('Sent', { messageIdHeader: '<a2@x>', inReplyTo: '<a@x>', subject: 'Re: a' }); // unread, but in Sent
    expect(await fx.threads.count(fx.accountId, fx.folder('INBOX'))).toEqual({ total: 2, unread: 1 });
    expect(await fx.threads.count(fx.accountId, fx.folder('Trash'))).toEqual({ total: 0, unread: 0 });
  });

  test('detail lists messages oldest first; an unknown or foreign thread is ThreadNotFound', async () => {
    const fx = await readingFixture();
    const late = await fx.add('Sent', { messageIdHeader: '<r@x>', inReplyTo: '<o@x>', subject: 'Re: o', date: T0 + 5000 });
    const early = await fx.add('INBOX', { messageIdHeader: '<o@x>', subject: 'o', date: T0 });
    const detail = await fx.threads.detail(fx.accountId, fx.threadOf(late));
    expect(detail.messages.map((message) => message.id)).toEqual([String(early), String(late)]);
    expect(detail.thread.messageIds).toEqual([String(early), String(late)]);
    await expect(fx.threads.detail(fx.accountId, 999)).rejects.toThrow(TernError);
    await expect(fx.threads.detail(fx.accountId + 1, fx.threadOf(late))).rejects.toThrow(/conversation could not be found/);
    await expect(fx.threads.page({ accountId: fx.accountId + 1, folderId: fx.folder('INBOX'), before: undefined, limit: 5 })).rejects.toThrow(/folder could not be found/);
  });
});
