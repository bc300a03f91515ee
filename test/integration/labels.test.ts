// Labels against real Dovecot (issue 17 point 1): the table's routes refuse bad names with
// the catalogue's errors and change nothing; a label is an IMAP keyword, so one set by
// another IMAP client shows through the gateway, one given through the gateway is seen
// over raw IMAP, and a deleted label leaves no keyword behind.
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BulkActionResult } from '../../shared/api/actions';
import type { LabelsDoc } from '../../shared/api/labels';
import type { MessageMeta, ThreadSummary } from '../../shared/api/mail';
import type { SearchResponse } from '../../shared/api/reading';
import { eventually } from './support/gateway-fixture';
import { ALICE, changesSince, fetchUid, startWritesFixture, uidsByMessageId, type WritesFixture } from './support/mail-writes-fixture';

let fx: WritesFixture;
let imap: ImapFlow;

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'labels', count: 30 });
  await fx.ctx.mirrors.get(fx.alice.accountId)!.whenFullyMirrored;
  imap = await fx.imap(ALICE);
});
afterAll(async () => {
  await imap?.logout().catch(() => undefined);
  await fx?.close();
});

type Reply = LabelsDoc & { error?: string };
const labels = (method: string, url: string, body?: unknown) => fx.api<Reply>(fx.alice, method, url, body);

/** INBOX messages with a Message-ID, as the mirror has them. */
async function inbox(): Promise<MessageMeta[]> {
  const rows = await fx.ctx.store.all<{ id: number }>(
    `SELECT m.id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? AND f.path = 'INBOX' AND m.message_id_header IS NOT NULL ORDER BY m.id`,
    [fx.alice.accountId],
  );
  return Promise.all(rows.map(async (row) => (await fx.ctx.materializer.message(fx.alice.accountId, row.id))!));
}

/** The keywords another mail program sees on a message. */
async function keywordsOnServer(messageIdHeader: string): Promise<string[]> {
  const [uid] = await uidsByMessageId(imap, 'INBOX', messageIdHeader);
  return [...(await fetchUid(imap, uid!, { flags: true })).flags!].filter((flag) => !flag.startsWith('\\'));
}

describe('labels', () => {
  let work: LabelsDoc['labels'][number];

  test('create; empty, too long and duplicate names are refused with the catalogue and change nothing; the server keeps keywords', async () => {
    const empty = await labels('GET', '/api/labels');
    expect(empty.body).toEqual({ labels: [], serverKeepsLabels: true });

    const created = await labels('POST', '/api/labels', { name: '  Work Stuff ', color: 'blue' });
    expect(created.status, created.text).toBe(200);
    expect(created.body.labels).toEqual([{ id: expect.any(String), keyword: 'work_stuff', name: 'Work Stuff', color: 'blue' }]);
    work = created.body.labels[0]!;

    for (const [name, status, error] of [
      ['   ', 400, 'LabelNameInvalid'],
      ['x'.repeat(41), 400, 'LabelNameInvalid'],
      ['work stuff', 409, 'LabelAlreadyExists'],
    ] as const) {
      const refused = await labels('POST', '/api/labels', { name, color: 'red' });
      expect([refused.status, refused.body.error], name).toEqual([status, error]);
    }
    const renamedOnto = await labels('POST', '/api/labels', { name: 'Other', color: 'red' });
    const other = renamedOnto.body.labels.find((label) => label.name === 'Other')!;
    const clash = await labels('PATCH', `/api/labels/${other.id}`, { name: 'WORK STUFF' });
    expect([clash.status, clash.body.error]).toEqual([409, 'LabelAlreadyExists']);
    expect((await labels('DELETE', `/api/labels/${other.id}`)).status).toBe(200);
    expect((await labels('GET', '/api/labels')).body.labels).toEqual([work]);
    expect((await labels('PATCH', '/api/labels/999999', { color: 'red' })).body.error).toBe('LabelNotFound');
  });

  test('a keyword set by another IMAP client shows as the label through the gateway', async () => {
    const [target] = await inbox();
    const cursor = await fx.ctx.txlog.latest(fx.alice.accountId);
    const [uid] = await uidsByMessageId(imap, 'INBOX', target!.messageIdHeader!);
    await imap.messageFlagsAdd(String(uid), [work.keyword], { uid: true });
    const thread = await eventually(
      async () => {
        const changes = await changesSince(fx, fx.alice, cursor);
        const found = changes.find((change) => change.op === 'upsert' && change.object === 'thread' && change.data.id === target!.threadId);
        return found && found.op === 'upsert' && (found.data as ThreadSummary).keywords?.includes(work.keyword) ? (found.data as ThreadSummary) : undefined;
      },
      5000,
      'the other client’s keyword in the delta',
    );
    expect(thread.keywords).toEqual([work.keyword]);
    expect((await fx.ctx.materializer.message(fx.alice.accountId, Number(target!.id)))!.keywords).toContain(work.keyword);
  });

  test('a label given through the gateway is seen over raw IMAP; taken away, it is gone; an unknown keyword is LabelNotFound', async () => {
    const [, target] = await inbox();
    const give = await fx.api<BulkActionResult>(fx.alice, 'POST', '/api/threads/bulk', { ids: [target!.threadId], action: 'label', keyword: work.keyword });
    expect(give.status, give.text).toBe(200);
    expect(await keywordsOnServer(target!.messageIdHeader!)).toContain(work.keyword);
    const thread = await fx.ctx.materializer.thread(fx.alice.accountId, Number(target!.threadId));
    expect(thread!.keywords).toContain(work.keyword);

    const take = await fx.api(fx.alice, 'POST', '/api/threads/bulk', { ids: [target!.threadId], action: 'unlabel', keyword: work.keyword });
    expect(take.status).toBe(200);
    expect(await keywordsOnServer(target!.messageIdHeader!)).not.toContain(work.keyword);

    const unknown = await fx.api(fx.alice, 'POST', '/api/threads/bulk', { ids: [target!.threadId], action: 'label', keyword: 'nosuchlabel' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'LabelNotFound']);
    const noKeyword = await fx.api(fx.alice, 'POST', '/api/threads/bulk', { ids: [target!.threadId], action: 'label' });
    expect(noKeyword.status).toBe(400);
  });

  test('label:"Name" finds the threads with the label (the name case aside, the mirror and the server alike); an unknown name is refused by name', async () => {
    const messages = await inbox();
    const given = await fx.api(fx.alice, 'POST', '/api/threads/bulk', { ids: [messages[4]!.threadId], action: 'label', keyword: work.keyword });
    expect(given.status).toBe(200);
    const search = (q: string) => fx.api<SearchResponse & { error?: string; message?: string }>(fx.alice, 'GET', `/api/search?${new URLSearchParams({ q, limit: '50' })}`);
    // messages[0] got the keyword from the other client, messages[4] through the gateway.
    const found = await search('label:"work STUFF"');
    expect(found.status, found.text).toBe(200);
    expect(found.body.threads.map((thread) => thread.id).sort()).toEqual([messages[0]!.threadId, messages[4]!.threadId].sort());
    // The server's SEARCH KEYWORD agrees with the mirror's answer.
    await imap.mailboxOpen('INBOX');
    const onServer = await imap.search({ keyword: work.keyword }, { uid: true });
    const serverIds = await Promise.all((onServer || []).map(async (uid) => (await fetchUid(imap, uid, { envelope: true })).envelope!.messageId));
    // A thread's label is on every message of it: the server's hits are the INBOX messages of the found threads.
    const foundThreads = new Set(found.body.threads.map((thread) => thread.id));
    expect(serverIds.sort()).toEqual(messages.filter((message) => foundThreads.has(message.threadId)).map((message) => message.messageIdHeader).sort());
    const narrowed = await search(`label:"Work Stuff" subject:"${messages[4]!.subject}"`);
    expect(narrowed.body.threads.map((thread) => thread.id)).toEqual([messages[4]!.threadId]);

    const unknown = await search('label:Nope budget');
    expect([unknown.status, unknown.body.error]).toEqual([400, 'InvalidSearchQuery']);
    expect(unknown.text).toContain('There is no label named “Nope”');
  });

  test('a label renamed keeps its keyword; deleted, its keyword leaves every message on the server', async () => {
    const messages = await inbox();
    const given = await fx.api(fx.alice, 'POST', '/api/threads/bulk', { ids: [messages[2]!.threadId, messages[3]!.threadId], action: 'label', keyword: work.keyword });
    expect(given.status).toBe(200);
    const renamed = await labels('PATCH', `/api/labels/${work.id}`, { name: 'Projects', color: 'green' });
    expect(renamed.body.labels).toEqual([{ ...work, name: 'Projects', color: 'green' }]);

    const deleted = await labels('DELETE', `/api/labels/${work.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.labels).toEqual([]);
    for (const message of messages.slice(0, 4)) expect(await keywordsOnServer(message.messageIdHeader!), message.subject).not.toContain(work.keyword);
    const left = await fx.ctx.store.all<{ id: number }>(`SELECT id FROM messages WHERE account_id = ? AND flags LIKE ?`, [fx.alice.accountId, `%"${work.keyword}"%`]);
    expect(left).toEqual([]);
  });
});

// The priority inbox's verdict (issue 17 point 4) travels as $Important (RFC 8457) the same
// way: no label row, no plan gate; another program's `$important` reaches the engine's thread.
describe('the priority inbox’s $Important', () => {
  test('given by Tern it is seen over raw IMAP and taken away again; set by another client in any case it reaches the thread as $Important', async () => {
    const messages = await inbox();
    const [mine, theirs] = [messages[6]!, messages[7]!];
    const give = await fx.api<BulkActionResult>(fx.alice, 'POST', '/api/threads/bulk', { ids: [mine.threadId], action: 'label', keyword: '$Important' });
    expect(give.status, give.text).toBe(200);
    expect(await keywordsOnServer(mine.messageIdHeader!)).toContain('$Important');
    const take = await fx.api(fx.alice, 'POST', '/api/threads/bulk', { ids: [mine.threadId], action: 'unlabel', keyword: '$Important' });
    expect(take.status).toBe(200);
    expect(await keywordsOnServer(mine.messageIdHeader!)).not.toContain('$Important');

    const cursor = await fx.ctx.txlog.latest(fx.alice.accountId);
    const [uid] = await uidsByMessageId(imap, 'INBOX', theirs.messageIdHeader!);
    await imap.messageFlagsAdd(String(uid), ['$important'], { uid: true });
    const thread = await eventually(
      async () => {
        const changes = await changesSince(fx, fx.alice, cursor);
        const found = changes.find((change) => change.op === 'upsert' && change.object === 'thread' && change.data.id === theirs.threadId);
        return found && found.op === 'upsert' && ((found.data as ThreadSummary).keywords ?? []).length > 0 ? (found.data as ThreadSummary) : undefined;
      },
      5000,
      'the other client’s $important in the delta',
    );
    // One spelling, whatever the other program wrote: the engine's Important section reads the thread's keywords.
    expect(thread.keywords).toEqual(['$Important']);
    await imap.messageFlagsRemove(String(uid), ['$important'], { uid: true });
  });
});
