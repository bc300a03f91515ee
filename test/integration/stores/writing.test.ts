/**
 * Writing and sending mail on both engines (DESIGN §7): every query of the draft, upload and
 * outbox stores — and the few the draft, adopt and send services run themselves — once on
 * SQLite and once on a real PostgreSQL, so a construct only one engine accepts fails here.
 * The exactly-once parts are the point: a client id used twice, the draft's version guard,
 * an idempotency key used again (also by two sends at once), the outbox's guarded state
 * changes and its commit point.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { SendRequest } from '../../../shared/api/compose';
import type { AccountRecord } from '../../../src-server/accounts/account-store';
import { DraftService } from '../../../src-server/drafts/draft-service';
import { DraftStore, type DraftFields, type DraftWrite } from '../../../src-server/drafts/draft-store';
import { MessageAssembler } from '../../../src-server/drafts/message-assembler';
import { UploadStore } from '../../../src-server/drafts/upload-store';
import { JobQueue } from '../../../src-server/jobs/job-queue';
import { OutboxJobs } from '../../../src-server/outbox/outbox-jobs';
import { OutboxStore, type NewOutboxRow } from '../../../src-server/outbox/outbox-store';
import { SendService } from '../../../src-server/outbox/send-service';
import type { SqlStore } from '../../../src-server/store/sql';
import type { TransactionLog } from '../../../src-server/store/transaction-log';
import { describeOnEngines } from '../support/engines';

const EMPTY = Buffer.alloc(0);

async function addAccount(store: SqlStore, email: string): Promise<number> {
  const row = await store.get<{ id: number }>(
    `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
     VALUES (?, 'Alice', 'h', 1, 'none', 'h', 2, 'none', ?, 0) RETURNING id`,
    [email, EMPTY],
  );
  return row!.id;
}

/** A mirrored message (what the draft and adopt services look up), in a folder made for it. */
async function addMirrored(store: SqlStore, params: { accountId: number; path: string; uid: number; messageIdHeader: string | null; flags: string[] }): Promise<number> {
  await store.run('INSERT INTO folders (account_id, path, name) VALUES (?, ?, ?) ON CONFLICT (account_id, path) DO NOTHING', [params.accountId, params.path, params.path]);
  const folder = await store.get<{ id: number }>('SELECT id FROM folders WHERE account_id = ? AND path = ?', [params.accountId, params.path]);
  const row = await store.get<{ id: number }>(
    `INSERT INTO messages (account_id, folder_id, uid, thread_id, message_id_header, date, received_at, flags) VALUES (?, ?, ?, 0, ?, 0, 0, ?) RETURNING id`,
    [params.accountId, folder!.id, params.uid, params.messageIdHeader, JSON.stringify(params.flags)],
  );
  return row!.id;
}

const fields = (subject: string): DraftFields => ({ from: null, to: [{ name: 'Bob', email: 'bob@kite.test' }], cc: [], bcc: [], subject, html: null, text: `${subject} body` });
const noParent = { parentId: null, inReplyTo: null, references: [] };
const write = (subject: string, attachmentIds: readonly string[] = []): DraftWrite => ({ folderPath: 'Drafts', uid: null, fields: fields(subject), parent: noParent, attachmentIds });

/** Bytes a text column would spoil: NUL, high bytes, CR LF. */
const RAW = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x2e, 0x80, 0x41]);

describeOnEngines('Writing stores', (engine) => {
  let store: SqlStore;
  let dataDir: string;
  let clock: number;
  let alice: number;
  let bob: number;
  let drafts: DraftStore;
  let uploads: UploadStore;
  let outbox: OutboxStore;
  const now = () => clock;

  beforeEach(async () => {
    store = await engine.open();
    dataDir = await engine.dataDir();
    clock = 1_000_000;
    alice = await addAccount(store, 'alice@tern.test');
    bob = await addAccount(store, 'bob@kite.test');
    drafts = new DraftStore(store, now);
    uploads = new UploadStore({ store, dir: join(dataDir, 'uploads'), now });
    outbox = new OutboxStore(store, now);
  });
  afterEach(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const upload = (accountId: number, name: string) =>
    uploads.receive({ accountId, filename: name, contentType: 'text/plain', stream: Readable.from([Buffer.from(`${name} content`)]), remaining: 1_000_000 });

  const message = (key: string, extra: Partial<NewOutboxRow> = {}): NewOutboxRow => ({
    accountId: alice,
    idempotencyKey: key,
    requestHash: `hash-${key}`,
    draftId: null,
    parentId: null,
    messageIdHeader: `<${key}@tern.test>`,
    envelope: { from: 'alice@tern.test', to: ['bob@kite.test'] },
    raw: RAW,
    sentCopy: null,
    uploadIds: [],
    ...extra,
  });

  test('drafts: a client id retried is refused and leaves nothing; lookups by id, client id, Message-ID and copy', async () => {
    const first = await drafts.insert({ accountId: alice, clientId: 'local-1', messageIdHeader: '<d1@tern.test>', saving: true, ...write('One') });
    expect(first).toMatchObject({ accountId: alice, clientId: 'local-1', version: 1, state: 'open', folderPath: 'Drafts', uid: null, savingSince: clock, supersededUid: null });
    expect(first.fields).toEqual(fields('One'));
    await expect(drafts.insert({ accountId: alice, clientId: 'local-1', messageIdHeader: '<d1-retry@tern.test>', ...write('One again') })).rejects.toThrow();
    expect(await drafts.byMessageIdHeader(alice, '<d1-retry@tern.test>')).toBeUndefined(); // the refused insert kept nothing
    // The same client id in another account, and drafts without one, are separate drafts.
    const bobs = await drafts.insert({ accountId: bob, clientId: 'local-1', messageIdHeader: '<b1@kite.test>', ...write('Bob') });
    const loose = [
      await drafts.insert({ accountId: alice, clientId: null, messageIdHeader: '<same@tern.test>', ...write('Older') }),
      await drafts.insert({ accountId: alice, clientId: null, messageIdHeader: '<same@tern.test>', ...write('Newer') }),
    ];
    expect(loose[0]!.savingSince).toBeNull();

    expect((await drafts.get(alice, first.id))?.fields.subject).toBe('One');
    expect(await drafts.get(bob, first.id)).toBeUndefined(); // another account's draft is not found
    expect((await drafts.byClientId(alice, 'local-1'))?.id).toBe(first.id);
    expect((await drafts.byClientId(bob, 'local-1'))?.id).toBe(bobs.id);
    expect((await drafts.byMessageIdHeader(alice, '<same@tern.test>'))?.id).toBe(loose[1]!.id); // the newest
    await drafts.endSave(first.id, 41);
    expect((await drafts.atCopy(alice, 'Drafts', 41))?.id).toBe(first.id);
    expect(await drafts.atCopy(alice, 'Drafts', 42)).toBeUndefined();
  });

  test('drafts: versions are guarded, attachments follow each version in order, and a save under way is recorded until it ends', async () => {
    const [a, b, c] = [await upload(alice, 'a.txt'), await upload(alice, 'b.txt'), await upload(alice, 'c.txt')];
    const draft = await drafts.insert({ accountId: alice, clientId: null, messageIdHeader: '<v@tern.test>', ...write('v1', [b.id, a.id, b.id]) });
    expect(draft.attachmentIds).toEqual([b.id, a.id]); // repeats dropped, order kept

    clock += 10;
    const v2 = await drafts.update({ accountId: alice, id: draft.id, expectedVersion: 1, ...write('v2', [c.id, a.id]), uid: 7 });
    expect(v2).toMatchObject({ version: 2, uid: 7, updatedAt: clock, attachmentIds: [c.id, a.id] });
    expect(v2!.fields.subject).toBe('v2');
    expect(await drafts.update({ accountId: alice, id: draft.id, expectedVersion: 1, ...write('stale') })).toBeNull();
    expect(await drafts.update({ accountId: bob, id: draft.id, expectedVersion: 2, ...write('not bob’s') })).toBeNull();

    expect(await drafts.savesUnderWay()).toEqual([]);
    clock += 10;
    await drafts.beginSave(draft.id, 7);
    const other = await drafts.insert({ accountId: bob, clientId: null, messageIdHeader: '<w@kite.test>', saving: true, ...write('w') });
    expect((await drafts.savesUnderWay()).map((d) => [d.id, d.savingSince, d.supersededUid])).toEqual([
      [draft.id, clock, 7],
      [other.id, clock, null],
    ]);
    await drafts.endSave(draft.id); // the copies are one again; the recorded copy stays
    await drafts.endSave(other.id, 12);
    expect(await drafts.savesUnderWay()).toEqual([]);
    expect(await drafts.get(alice, draft.id)).toMatchObject({ uid: 7, savingSince: null, supersededUid: null });
    expect(await drafts.get(bob, other.id)).toMatchObject({ uid: 12, savingSince: null });
    await drafts.endSave(other.id, null);
    expect((await drafts.get(bob, other.id))!.uid).toBeNull();
  });

  test('drafts: state transitions are guarded; a draft not open takes no new version', async () => {
    const draft = await drafts.insert({ accountId: alice, clientId: null, messageIdHeader: '<s@tern.test>', ...write('s') });
    expect(await drafts.transition(draft.id, ['open'], 'sending')).toBe(true);
    expect(await drafts.transition(draft.id, ['open'], 'sending')).toBe(false);
    expect(await drafts.update({ accountId: alice, id: draft.id, expectedVersion: 1, ...write('too late') })).toBeNull();
    expect(await drafts.transition(draft.id, ['sending'], 'open')).toBe(true); // a failed send: editable again
    expect(await drafts.transition(draft.id, ['open', 'sending'], 'sent')).toBe(true);
    expect(await drafts.transition(draft.id, ['open', 'sending'], 'deleted')).toBe(false);
    expect((await drafts.get(alice, draft.id))!.state).toBe('sent');
  });

  test('uploads: rows by account, all-or-nothing lookups, removal; release and the sweep keep what an open draft holds', async () => {
    const a = await upload(alice, 'a.txt');
    const b = await upload(alice, 'b.txt');
    const foreign = await upload(bob, 'x.txt');
    expect(a).toMatchObject({ accountId: alice, filename: 'a.txt', contentType: 'text/plain', size: 13, createdAt: clock });
    expect(await uploads.owned(alice, [b.id, a.id, b.id])).toEqual([b, a]);
    await expect(uploads.owned(alice, [a.id, foreign.id])).rejects.toMatchObject({ name: 'FileNotFound', detail: { missing: [foreign.id] } });
    expect(await uploads.existing(alice, [foreign.id, a.id, 'nope'])).toEqual([a]);
    expect((await uploads.read(a)).toString()).toBe('a.txt content');
    expect(await uploads.remove(bob, a.id)).toBe(false);
    expect(await uploads.remove(bob, foreign.id)).toBe(true);
    expect(await uploads.existing(bob, [foreign.id])).toEqual([]);

    const draft = await drafts.insert({ accountId: alice, clientId: null, messageIdHeader: '<u@tern.test>', ...write('u', [a.id]) });
    await uploads.release(alice, [a.id, b.id]); // after a send: b goes, a is still held by the open draft
    expect(await uploads.existing(alice, [a.id, b.id])).toEqual([a]);
    const c = await upload(alice, 'c.txt');
    clock += 25 * 3_600_000;
    const d = await upload(alice, 'd.txt');
    expect(await uploads.sweep(24 * 3_600_000)).toBe(1); // c: old and loose; a held, d new
    expect(await uploads.existing(alice, [a.id, c.id, d.id])).toEqual([a, d]);
    await drafts.transition(draft.id, ['open'], 'sent');
    expect(await uploads.sweep(24 * 3_600_000)).toBe(1); // a, no longer held
    expect(await uploads.existing(alice, [a.id, d.id])).toEqual([d]);
  });

  test('outbox: a reused idempotency key is the same row; the bytes come back as stored', async () => {
    const first = await outbox.enqueue(message('k1', { sentCopy: Buffer.from('with Bcc'), uploadIds: ['u1', 'u2'], parentId: 9 }));
    const again = await outbox.enqueue(message('k1', { requestHash: 'other' }));
    const bobs = await outbox.enqueue(message('k1', { accountId: bob }));
    expect([first.created, again.created, bobs.created]).toEqual([true, false, true]);
    expect(again.row).toEqual(first.row);
    expect(bobs.row.id).not.toBe(first.row.id);
    expect(first.row).toMatchObject({
      accountId: alice, idempotencyKey: 'k1', requestHash: 'hash-k1', draftId: null, parentId: 9, messageIdHeader: '<k1@tern.test>',
      envelope: { from: 'alice@tern.test', to: ['bob@kite.test'] }, uploadIds: ['u1', 'u2'], state: 'queued', attempts: 0, filingAttempts: 0,
      nextAttemptAt: clock, smtp: null, lastError: null, failure: null, committedAt: null, sentCopyState: 'pending', createdAt: clock,
    });
    expect(Buffer.compare(first.row.raw, RAW)).toBe(0);
    expect(first.row.sentCopy?.toString()).toBe('with Bcc');
    expect(await outbox.get(first.row.id)).toEqual(first.row);
    expect(await outbox.byKey(alice, 'k1')).toEqual(first.row);
    expect(await outbox.byKey(alice, 'k2')).toBeUndefined();
    expect(await outbox.get(first.row.id + 1000)).toBeUndefined();
  });

  test('outbox: unfinished rows oldest first, claim once, the commit point set before the dot and cleared on requeue, each step fenced by its attempt', async () => {
    expect(await outbox.unfinished()).toEqual([]);
    const one = (await outbox.enqueue(message('k1'))).row;
    clock += 1;
    const two = (await outbox.enqueue(message('k2'))).row;
    const three = (await outbox.enqueue(message('k3'))).row;
    expect(await outbox.unfinished()).toEqual([
      { id: one.id, accountId: alice, nextAttemptAt: clock - 1 },
      { id: two.id, accountId: alice, nextAttemptAt: clock },
      { id: three.id, accountId: alice, nextAttemptAt: clock },
    ]);

    expect(await outbox.markCommitting(one.id)).toBe(false); // only an attempt under way has a commit point
    expect(await outbox.claim(one.id)).toBe(true);
    expect(await outbox.claim(one.id)).toBe(false); // another worker took it
    clock += 5;
    expect(await outbox.markCommitting(one.id, 2)).toBe(false); // not attempt 2's row
    expect(await outbox.markCommitting(one.id, 1)).toBe(true);
    expect(await outbox.get(one.id)).toMatchObject({ state: 'sending', attempts: 1, committedAt: clock });
    expect(await outbox.requeue(one.id, '451 try later', clock + 5_000, 2)).toBe(false);
    expect(await outbox.requeue(one.id, '451 try later', clock + 5_000, 1)).toBe(true);
    expect(await outbox.get(one.id)).toMatchObject({ state: 'queued', committedAt: null, lastError: '451 try later', nextAttemptAt: clock + 5_000 });
    expect(await outbox.requeue(one.id, 'again', 0)).toBe(false);
    expect(await outbox.claim(one.id)).toBe(true); // attempt 2: attempt 1's late steps are refused
    expect(await outbox.markAccepted(one.id, { response: '250', accepted: [], rejected: [] }, 1)).toBe(false);
    expect(await outbox.markUnknown(one.id, 'late', 1)).toBe(false);
    expect(await outbox.markFailed(one.id, { permanent: true, responseCode: 550, reason: 'late', tooLarge: false }, 1)).toBe(false);
    expect(await outbox.get(one.id)).toMatchObject({ state: 'sending', attempts: 2, lastError: '451 try later' });

    await outbox.claim(two.id);
    await outbox.claim(three.id);
    expect(await outbox.markFailed(three.id, { permanent: true, responseCode: 550, reason: '550 no such user', tooLarge: false }, 1)).toBe(true);
    expect(await outbox.get(three.id)).toMatchObject({ state: 'failed', lastError: '550 no such user', failure: { responseCode: 550, permanent: true } });
    expect(await outbox.markAccepted(three.id, { response: '250', accepted: [], rejected: [] })).toBe(false);
    expect((await outbox.unfinished()).map((row) => row.id)).toEqual([one.id, two.id]);
  });

  test('outbox: settle — accepted is filed and sent (its bytes dropped), or sent without a copy (kept); unknown is resent or confirmed', async () => {
    const filed = (await outbox.enqueue(message('k-filed', { sentCopy: Buffer.from('bcc') }))).row;
    await outbox.claim(filed.id);
    clock += 1;
    expect(await outbox.markAccepted(filed.id, { response: '250 queued', accepted: ['bob@kite.test'], rejected: ['eve@kite.test'] })).toBe(true);
    expect(await outbox.get(filed.id)).toMatchObject({ state: 'accepted', nextAttemptAt: clock, smtp: { response: '250 queued', rejected: ['eve@kite.test'] } });
    expect((await outbox.unfinished()).map((row) => row.id)).toEqual([filed.id]); // accepted rows have filing left
    expect(await outbox.deferFiling(filed.id, 'NO [OVERQUOTA]', clock + 1_000)).toBe(true);
    expect(await outbox.get(filed.id)).toMatchObject({ filingAttempts: 1, lastError: 'NO [OVERQUOTA]', nextAttemptAt: clock + 1_000 });
    expect(await outbox.markCopyFiled(filed.id)).toBe(true);
    expect((await outbox.get(filed.id))!.sentCopyState).toBe('filed');
    expect(await outbox.markSent(filed.id)).toBe(true);
    const sent = (await outbox.get(filed.id))!;
    expect(sent).toMatchObject({ state: 'sent', sentCopyState: 'filed', lastError: null, sentCopy: null });
    expect(sent.raw.length).toBe(0);
    expect(await outbox.markSent(filed.id)).toBe(false);

    const noted = (await outbox.enqueue(message('k-noted'))).row;
    await outbox.claim(noted.id);
    await outbox.markAccepted(noted.id, { response: '250', accepted: [], rejected: [] });
    await outbox.markSent(noted.id, 'filed in Sent, but: draft copy stayed');
    expect((await outbox.get(noted.id))!.lastError).toBe('filed in Sent, but: draft copy stayed');

    const lost = (await outbox.enqueue(message('k-lost'))).row;
    await outbox.claim(lost.id);
    await outbox.markAccepted(lost.id, { response: '250', accepted: [], rejected: [] });
    expect(await outbox.markSentWithoutCopy(lost.id, 'not filed in Sent: NO')).toBe(true);
    const without = (await outbox.get(lost.id))!;
    expect(without).toMatchObject({ state: 'sent', sentCopyState: 'failed', lastError: 'not filed in Sent: NO' });
    expect(Buffer.compare(without.raw, RAW)).toBe(0); // the only copy of what was sent

    const unsure = (await outbox.enqueue(message('k-unsure'))).row;
    expect(await outbox.resend(unsure.id)).toBe(false);
    await outbox.claim(unsure.id);
    await outbox.markCommitting(unsure.id);
    expect(await outbox.markUnknown(unsure.id, 'may have been sent')).toBe(true);
    expect(await outbox.get(unsure.id)).toMatchObject({ state: 'unknown', lastError: 'may have been sent' });
    expect((await outbox.unfinished()).map((row) => row.id)).not.toContain(unsure.id); // never again on its own
    clock += 1;
    expect(await outbox.resend(unsure.id)).toBe(true);
    expect(await outbox.get(unsure.id)).toMatchObject({ state: 'queued', committedAt: null, lastError: null, nextAttemptAt: clock });
    await outbox.claim(unsure.id);
    await outbox.markUnknown(unsure.id, 'again');
    expect(await outbox.confirmSent(unsure.id)).toBe(true);
    expect(await outbox.get(unsure.id)).toMatchObject({ state: 'accepted', smtp: { response: 'confirmed as sent by the person' } });
    expect(await outbox.confirmSent(unsure.id)).toBe(false);
  });

  /** The draft and send services over these stores; what they need beyond the database is stubbed. */
  /** `sends`: the outbox the send service reads (a test may slow its first look). */
  function services(sends: OutboxStore = outbox) {
    const account: AccountRecord = { id: alice, email: 'alice@tern.test', name: 'Alice', imap: { host: 'h', port: 1, security: 'none' }, smtp: { host: 'h', port: 2, security: 'none' }, latestTxnId: 0 };
    const accounts = { get: async (id: number) => (id === alice ? account : undefined) };
    const assembler = new MessageAssembler({ accounts, uploads });
    const txlog = { latest: () => 0 } as unknown as TransactionLog;
    const source = { value: Buffer.alloc(0) };
    const imapClient = { fetchOne: async () => ({ source: source.value }) };
    const access = { withFolder: async (_accountId: number, _path: string, use: (client: never) => Promise<unknown>) => use(imapClient as never), settle: async () => undefined };
    const draftService = new DraftService({ sql: store, store: drafts, accounts, assembler, parents: {} as never, uploads, roles: {} as never, access: access as never, txlog });
    const worker = { on: () => undefined, off: () => undefined } as never;
    const jobs = new OutboxJobs(new JobQueue({ store, now: () => clock }), store);
    const send = new SendService({ sql: store, store: sends, jobs, worker, kick: () => undefined, drafts: draftService, draftStore: drafts, assembler, parents: {} as never, accounts, txlog, waitMs: 1, announceWaiting: async () => undefined, draftCopies: { hide: async () => undefined, restore: async () => undefined } });
    return { draftService, send, source };
  }

  test('draft service: a draft names its mirrored copy; a Drafts message opens its draft, and one of another program is adopted with its parent', async () => {
    const { draftService, source } = services();
    const parentId = await addMirrored(store, { accountId: alice, path: 'INBOX', uid: 3, messageIdHeader: '<parent@kite.test>', flags: [] });
    const draft = await drafts.insert({ accountId: alice, clientId: null, messageIdHeader: '<ours@tern.test>', ...write('Ours'), uid: 5 });
    const copy = await addMirrored(store, { accountId: alice, path: 'Drafts', uid: 5, messageIdHeader: '<ours@tern.test>', flags: ['\\Draft'] });
    expect(await draftService.view(alice, draft.id)).toMatchObject({ id: String(draft.id), messageId: String(copy), subject: 'Ours' });
    expect((await draftService.viewOfMessage(alice, copy)).id).toBe(String(draft.id));
    await expect(draftService.viewOfMessage(alice, parentId)).rejects.toMatchObject({ name: 'DraftDoesNotExist' }); // not a draft
    await expect(draftService.viewOfMessage(alice, parentId + 1000)).rejects.toMatchObject({ name: 'MessageNotFound' });

    const theirs = await addMirrored(store, { accountId: alice, path: 'Drafts', uid: 6, messageIdHeader: '<theirs@tern.test>', flags: ['\\Draft', '\\Seen'] });
    source.value = Buffer.from(
      'From: Alice <alice@tern.test>\r\nTo: Bob <bob@kite.test>\r\nSubject: Re: theirs\r\nMessage-ID: <theirs@tern.test>\r\n' +
        'In-Reply-To: <parent@kite.test>\r\nReferences: <root@kite.test> <parent@kite.test>\r\n\r\nWritten elsewhere.\r\n',
    );
    const adopted = await draftService.viewOfMessage(alice, theirs);
    expect(adopted).toMatchObject({ subject: 'Re: theirs', inReplyTo: String(parentId), messageId: String(theirs), to: [{ name: 'Bob', email: 'bob@kite.test' }] });
    expect((await drafts.byMessageIdHeader(alice, '<theirs@tern.test>'))!.references).toEqual(['<root@kite.test>', '<parent@kite.test>']);
  });

  test('send service: one transaction stores the send and seals its draft; the same key again — also two at once — is the same send', async () => {
    const { send } = services();
    const draft = await drafts.insert({ accountId: alice, clientId: null, messageIdHeader: '<ds@tern.test>', ...write('To send') });
    const request: SendRequest = { idempotencyKey: 'key-1', draftId: String(draft.id), draftVersion: 1 };
    const [a, b] = await Promise.all([send.send(alice, request), send.send(alice, request)]);
    expect(a.result.outboxId).toBe(b.result.outboxId);
    expect([a.status, a.result.state]).toEqual([202, 'queued']);
    expect((await drafts.get(alice, draft.id))!.state).toBe('sending');
    const row = (await outbox.byKey(alice, 'key-1'))!;
    expect([row.draftId, row.envelope.to]).toEqual([draft.id, ['bob@kite.test']]);
    expect(row.raw.toString()).toContain('Subject: To send');
    expect((await send.send(alice, request)).result.outboxId).toBe(String(row.id));
    // Its one job, committed with it: due now, in the account's lane.
    const jobRows = () => store.all('SELECT kind, payload, dedupe_key AS "dedupeKey", lane, state, run_at AS "runAt" FROM jobs ORDER BY id');
    expect(await jobRows()).toEqual([{ kind: 'outbox.send', payload: JSON.stringify({ outboxId: row.id }), dedupeKey: `outbox:${row.id}`, lane: `account:${alice}`, state: 'queued', runAt: clock }]);
    await expect(send.send(alice, { idempotencyKey: 'key-1', draftId: String(draft.id), draftVersion: 2 })).rejects.toMatchObject({ name: 'InvalidParameter' });
    await expect(send.status(alice, row.id)).resolves.toMatchObject({ outboxId: String(row.id), state: 'queued' });
    await expect(send.status(bob, row.id)).rejects.toMatchObject({ name: 'MessageNotFound' });

    // A draft already being sent, under a new key: refused, nothing stored.
    await expect(send.send(alice, { idempotencyKey: 'key-2', draftId: String(draft.id) })).rejects.toMatchObject({ name: 'DraftAlreadySent' });
    expect(await outbox.byKey(alice, 'key-2')).toBeUndefined();
    expect(await jobRows()).toHaveLength(1);

    // The race above made certain: the same key commits between a request's first look and its
    // draft read, so the draft is no longer open when it is read — the same send, not DraftAlreadySent.
    const late = await drafts.insert({ accountId: alice, clientId: null, messageIdHeader: '<late@tern.test>', ...write('Late') });
    const lateRequest: SendRequest = { idempotencyKey: 'key-late', draftId: String(late.id), draftVersion: 1 };
    let firstLook = true;
    const staleFirstLook = Object.create(outbox, {
      byKey: {
        value: async (accountId: number, key: string) => {
          if (!firstLook) return outbox.byKey(accountId, key);
          firstLook = false;
          await send.send(alice, lateRequest); // commits while this look still answers "none yet"
          return undefined;
        },
      },
    }) as OutboxStore;
    const repeated = await services(staleFirstLook).send.send(alice, lateRequest);
    expect(repeated.result.outboxId).toBe(String((await outbox.byKey(alice, 'key-late'))!.id));
    expect(await jobRows()).toHaveLength(2);
  });

  test('outbox jobs: rows of an older build (no job) get one at start, due when they were; a row with one gets no second', async () => {
    const jobs = new OutboxJobs(new JobQueue({ store, now: () => clock }), store);
    const old = (await outbox.enqueue(message('k-old'))).row;
    const orphan = (await outbox.enqueue(message('k-orphan', { accountId: bob }))).row;
    await outbox.claim(orphan.id);
    const done = (await outbox.enqueue(message('k-done'))).row;
    await outbox.claim(done.id);
    await outbox.markFailed(done.id, { permanent: true, responseCode: 550, reason: 'no', tooLarge: false });
    clock += 10;
    const current = await store.transaction(async () => {
      const stored = await outbox.enqueue(message('k-new'));
      await jobs.enqueue(stored.row);
      return stored.row;
    });
    await jobs.adoptUnfinished(outbox);
    await jobs.adoptUnfinished(outbox); // every node does it at its start
    const rows = await store.all<{ dedupeKey: string; lane: string; runAt: number }>('SELECT dedupe_key AS "dedupeKey", lane, run_at AS "runAt" FROM jobs ORDER BY dedupe_key');
    expect(rows).toEqual(
      [
        { dedupeKey: `outbox:${old.id}`, lane: `account:${alice}`, runAt: clock - 10 },
        { dedupeKey: `outbox:${orphan.id}`, lane: `account:${bob}`, runAt: clock - 10 },
        { dedupeKey: `outbox:${current.id}`, lane: `account:${alice}`, runAt: clock },
      ].sort((a, b) => a.dedupeKey.localeCompare(b.dedupeKey)),
    );
  });
});
