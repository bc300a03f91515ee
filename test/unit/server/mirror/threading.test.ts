import { describe, expect, test } from 'vitest';
import type { FolderListing } from '../../../../src-server/mirror/mirror-store';
import { subjectKey } from '../../../../src-server/mirror/subject-key';
import { messageIdsIn } from '../../../../src-server/mirror/threading';
import { days, mirrorFixture, noState, record } from './mirror-fixture';

const FOLDERS: FolderListing[] = [
  { path: 'INBOX', name: 'INBOX', parentPath: null, delimiter: '/', specialUse: 'inbox' },
  { path: 'Sent', name: 'Sent', parentPath: null, delimiter: '/', specialUse: 'sent' },
];

async function setup() {
  const fx = mirrorFixture();
  const [inbox, sent] = await fx.store.syncFolderList(fx.accountId, FOLDERS);
  let uid = 0;
  /** Mirrors one message into a folder, as its own sync step. */
  const mirror = async (folderId: number, fields: Parameters<typeof record>[0] extends infer R ? Omit<R, 'uid'> : never) => {
    uid += 1;
    await fx.store.applyFolderBatch(fx.accountId, { folderId, added: [record({ uid, ...fields })], flagUpdates: [], removedUids: [], state: noState });
    return uid;
  };
  const threadOf = (messageIdHeader: string) =>
    (fx.db.prepare('SELECT thread_id AS id FROM messages WHERE message_id_header = ?').get(messageIdHeader) as { id: number }).id;
  const threadCount = () => (fx.db.prepare('SELECT COUNT(DISTINCT thread_id) AS n FROM messages').get() as { n: number }).n;
  return { ...fx, inbox: inbox!.id, sent: sent!.id, mirror, threadOf, threadCount };
}

describe('subject keys', () => {
  test('reply and forward prefixes of many languages and list tags are removed', () => {
    expect(subjectKey('AW: SV: Re[2]: [team] Fwd:  Budget   2027')).toEqual({ key: 'budget 2027', isReply: true });
    expect(subjectKey('RE : Réunion')).toEqual({ key: 'réunion', isReply: true });
    expect(subjectKey('回复：报告')).toEqual({ key: '报告', isReply: true });
    expect(subjectKey('Budget 2027')).toEqual({ key: 'budget 2027', isReply: false });
  });

  test('words that merely start like a prefix are kept', () => {
    expect(subjectKey('Reminder: standup')).toEqual({ key: 'reminder: standup', isReply: false });
    expect(subjectKey('Review: Q3')).toEqual({ key: 'review: q3', isReply: false });
  });

  test('message ids are read from header values', () => {
    expect(messageIdsIn('<a@x> <b@y>\r\n <c@z>')).toEqual(['<a@x>', '<b@y>', '<c@z>']);
    expect(messageIdsIn('bare@id')).toEqual(['<bare@id>']);
    expect(messageIdsIn(null)).toEqual([]);
  });

  test('keys stay within a PostgreSQL index entry (2,704 bytes): ids cut at 600 characters, subject keys at 500, the same cut each time', () => {
    const long = `<${'é'.repeat(1000)}@x>`;
    const [cut] = messageIdsIn(`${long} <b@y>`);
    expect([...cut!]).toHaveLength(600);
    expect(cut).toBe(`<${'é'.repeat(598)}>`);
    expect(messageIdsIn(long.slice(1, -1))).toEqual([cut]);
    expect(Buffer.byteLength(cut!)).toBeLessThan(2704);
    const key = subjectKey(`Re: ${'ü'.repeat(900)}`);
    expect(key).toEqual({ key: 'ü'.repeat(500), isReply: true });
    expect(subjectKey('ü'.repeat(700)).key).toBe(key.key);
  });
});

describe('threading by references', () => {
  test('a reply in Sent mirrored before its original in INBOX ends up in one thread', async () => {
    const t = await setup();
    await t.mirror(t.sent, { messageIdHeader: '<r1@tern.test>', inReplyTo: '<o@x>', references: ['<o@x>'], subject: 'Re: Plan', date: days(1) });
    await t.mirror(t.inbox, { messageIdHeader: '<o@x>', subject: 'Plan', date: days(0) });
    expect(t.threadOf('<r1@tern.test>')).toBe(t.threadOf('<o@x>'));
    expect(await t.materializer.thread(t.accountId, t.threadOf('<o@x>'))).toMatchObject({ subject: 'Plan', messageCount: 2, folderIds: [String(t.inbox), String(t.sent)] });
  });

  test('a long chain mirrored newest first stays one thread, whatever the subjects say', async () => {
    const t = await setup();
    await t.mirror(t.inbox, { messageIdHeader: '<m3@x>', inReplyTo: '<m2@x>', references: ['<m1@x>', '<m2@x>'], subject: 'Re: changed topic', date: days(3) });
    await t.mirror(t.sent, { messageIdHeader: '<m2@x>', inReplyTo: '<m1@x>', references: ['<m1@x>'], subject: 'Re: Plan', date: days(2) });
    await t.mirror(t.inbox, { messageIdHeader: '<m1@x>', subject: 'Plan', date: days(1) });
    expect(t.threadCount()).toBe(1);
  });

  test('a message that links two threads merges them; the merged thread is logged and gone', async () => {
    const t = await setup();
    // Two replies to originals not mirrored yet: two threads.
    await t.mirror(t.inbox, { messageIdHeader: '<a2@x>', inReplyTo: '<a1@x>', references: ['<a1@x>'], subject: 'Re: A', date: days(5) });
    await t.mirror(t.inbox, { messageIdHeader: '<b2@x>', inReplyTo: '<b1@x>', references: ['<b1@x>'], subject: 'Re: B', date: days(6) });
    const [first, second] = [t.threadOf('<a2@x>'), t.threadOf('<b2@x>')].sort((x, y) => x - y) as [number, number];
    expect(first).not.toBe(second);
    const before = await t.txlog.latest(t.accountId);
    // A message naming both: the threads become one, the lower id survives.
    await t.mirror(t.sent, { messageIdHeader: '<c@x>', inReplyTo: '<b2@x>', references: ['<a1@x>', '<b1@x>', '<b2@x>'], subject: 'Re: A and B', date: days(7) });
    expect(t.threadOf('<a2@x>')).toBe(first);
    expect(t.threadOf('<b2@x>')).toBe(first);
    expect(t.threadOf('<c@x>')).toBe(first);
    expect(await t.materializer.thread(t.accountId, second)).toBeNull();
    const logged = (await t.txlog.read(t.accountId, before, 100)).entries.map((entry) => `${entry.object}:${entry.objectId}`);
    expect(logged).toEqual(expect.arrayContaining([`thread:${first}`, `thread:${second}`]));
    // The moved message is logged too, so clients learn its new threadId.
    const moved = (t.db.prepare('SELECT id FROM messages WHERE message_id_header = ?').get('<b2@x>') as { id: number }).id;
    expect(logged).toContain(`message:${moved}`);
    // The original of B arriving later finds the merged thread through the refs.
    await t.mirror(t.inbox, { messageIdHeader: '<b1@x>', subject: 'B', date: days(4) });
    expect(t.threadOf('<b1@x>')).toBe(first);
  });
});

describe('subject fallback', () => {
  test('a reply without reference headers joins a thread of the same subject within 30 days', async () => {
    const t = await setup();
    await t.mirror(t.inbox, { messageIdHeader: '<root@x>', subject: 'Budget 2027', date: days(0) });
    await t.mirror(t.inbox, { messageIdHeader: '<late@x>', subject: 'AW: Budget 2027', date: days(10) });
    expect(t.threadOf('<late@x>')).toBe(t.threadOf('<root@x>'));
  });

  test('…but not one that went quiet more than 30 days before', async () => {
    const t = await setup();
    await t.mirror(t.inbox, { messageIdHeader: '<root@x>', subject: 'Budget 2027', date: days(0) });
    await t.mirror(t.inbox, { messageIdHeader: '<late@x>', subject: 'Re: Budget 2027', date: days(45) });
    expect(t.threadOf('<late@x>')).not.toBe(t.threadOf('<root@x>'));
  });

  test('order does not matter: the header-less reply first, its root later', async () => {
    const t = await setup();
    await t.mirror(t.inbox, { messageIdHeader: '<late@x>', subject: 'Re: Budget 2027', date: days(10) });
    await t.mirror(t.inbox, { messageIdHeader: '<root@x>', subject: 'Budget 2027', date: days(0) });
    expect(t.threadOf('<late@x>')).toBe(t.threadOf('<root@x>'));
  });

  test('a root never joins another root by subject (two newsletters with one title)', async () => {
    const t = await setup();
    await t.mirror(t.inbox, { messageIdHeader: '<n1@x>', subject: 'Weekly digest', date: days(0) });
    await t.mirror(t.inbox, { messageIdHeader: '<n2@x>', subject: 'Weekly digest', date: days(7) });
    expect(t.threadOf('<n1@x>')).not.toBe(t.threadOf('<n2@x>'));
  });

  test('a reply with reference headers is never matched by subject', async () => {
    const t = await setup();
    await t.mirror(t.inbox, { messageIdHeader: '<root@x>', subject: 'Budget 2027', date: days(0) });
    await t.mirror(t.inbox, { messageIdHeader: '<other@x>', inReplyTo: '<elsewhere@x>', subject: 'Re: Budget 2027', date: days(1) });
    expect(t.threadOf('<other@x>')).not.toBe(t.threadOf('<root@x>'));
  });

  test('an empty subject never matches', async () => {
    const t = await setup();
    await t.mirror(t.inbox, { messageIdHeader: '<a@x>', subject: '', date: days(0) });
    await t.mirror(t.inbox, { messageIdHeader: '<b@x>', subject: 'Re:', date: days(1) });
    expect(t.threadOf('<a@x>')).not.toBe(t.threadOf('<b@x>'));
  });
});
