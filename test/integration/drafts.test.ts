// Drafts and uploads against real Dovecot: each save is one copy in the Drafts folder (the
// previous version deleted), versions in SQLite guard against stale saves, a sent draft is
// sealed and gone from Drafts, and uploads obey the size and name rules.
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DraftSaved, DraftView, SendResult, UploadResponse } from '../../shared/api/compose';
import { DraftStore } from '../../src-server/drafts/draft-store';
import { startFaultProxy, type FaultProxy } from '../crash/fault-proxy';
import { eventually } from './support/gateway-fixture';
import { ALICE, BOB, changesSince, fetchUid, startWritesFixture, uidsByMessageId, type WritesFixture } from './support/mail-writes-fixture';

let fx: WritesFixture;
let imap: ImapFlow;

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'drafts', count: 30, overrides: { sendWaitMs: 20_000 } });
  await fx.ctx.mirrors.get(fx.alice.accountId)!.whenFullyMirrored;
  imap = await fx.imap(ALICE);
});
afterAll(async () => {
  await imap?.logout().catch(() => undefined);
  await fx?.close();
});

type ErrorBody = { error?: string; detail?: unknown };
const api = <T>(method: string, url: string, body?: unknown) => fx.api<T & ErrorBody>(fx.alice, method, url, body);
const fields = (subject: string, extra: Record<string, unknown> = {}) => ({ to: [{ name: 'Bob', email: BOB.email }], cc: [], bcc: ['carol@kite.test'], subject, text: `${subject} body`, attachmentIds: [], ...extra });

/** Copies of a draft in the Drafts folder, with flags and subject, as another IMAP client sees them. */
async function draftCopies(messageIdHeader: string) {
  const uids = await uidsByMessageId(imap, 'Drafts', messageIdHeader);
  const copies = [];
  for (const uid of uids) {
    const message = await fetchUid(imap, uid, { flags: true, envelope: true, source: true });
    copies.push({ uid, flags: [...message.flags!].sort(), subject: message.envelope!.subject, source: message.source!.toString() });
  }
  return copies;
}

async function upload(files: { name: string; size: number; type?: string }[]) {
  const form = new FormData();
  for (const file of files) form.append('file', new Blob([Buffer.alloc(file.size, 0x61)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const response = await fx.fetch(fx.alice, '/api/files', { method: 'POST', body: form });
  return { status: response.status, body: (await response.json()) as UploadResponse & ErrorBody };
}

describe('drafts', () => {
  test('create, update, stale version, delete — each visible in the Drafts folder and the delta', async () => {
    const cursor = await fx.ctx.txlog.latest(fx.alice.accountId);
    const created = await api<DraftSaved>('POST', '/api/drafts', { version: 0, ...fields('Plan v1') });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.version).toBe(1);
    const header = created.body.messageIdHeader;
    let copies = await draftCopies(header);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.flags).toEqual(['\\Draft', '\\Seen']);
    expect(copies[0]!.subject).toBe('Plan v1');
    expect(copies[0]!.source).toMatch(/^Bcc: carol@kite\.test\r$/m); // the draft keeps Bcc for whoever opens it
    expect(created.body.messageId).not.toBeNull();
    const v1Message = created.body.messageId!;
    const afterCreate = await changesSince(fx, fx.alice, cursor);
    expect(afterCreate).toContainEqual(expect.objectContaining({ op: 'upsert', object: 'message', data: expect.objectContaining({ id: v1Message, draft: true, subject: 'Plan v1' }) }));

    const updated = await api<DraftSaved>('PUT', `/api/drafts/${created.body.id}`, { version: 1, ...fields('Plan v2') });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, version: 2, messageIdHeader: header });
    copies = await draftCopies(header);
    expect(copies.map((copy) => copy.subject)).toEqual(['Plan v2']);
    const afterUpdate = await changesSince(fx, fx.alice, created.body.latestTxnId);
    expect(afterUpdate).toContainEqual(expect.objectContaining({ op: 'delete', object: 'message', objectId: v1Message }));

    const stale = await api('PUT', `/api/drafts/${created.body.id}`, { version: 1, ...fields('Plan from an old tab') });
    expect([stale.status, stale.body.error, stale.body.detail]).toEqual([409, 'InvalidDraftVersion', { currentVersion: 2 }]);
    expect((await draftCopies(header)).map((copy) => copy.subject)).toEqual(['Plan v2']);

    const view = await api<DraftView>('GET', `/api/drafts/${created.body.id}`);
    expect(view.body).toMatchObject({ version: 2, state: 'open', subject: 'Plan v2', bcc: [{ name: '', email: 'carol@kite.test' }], messageId: updated.body.messageId });

    const removed = await api<{ latestTxnId: number }>('DELETE', `/api/drafts/${created.body.id}`);
    expect(removed.status).toBe(200);
    expect(await draftCopies(header)).toEqual([]);
    for (const [method, body] of [['GET'], ['PUT', { version: 2, ...fields('x') }], ['DELETE']] as const) {
      const gone = await api(method, `/api/drafts/${created.body.id}`, body);
      expect([gone.status, gone.body.error], method).toEqual([404, 'DraftDoesNotExist']);
    }
    expect((await api('PUT', '/api/drafts/999999', { version: 1, ...fields('x') })).body.error).toBe('DraftDoesNotExist');
  });

  test('a sent draft is sealed (410) and gone from Drafts; the message carries its attachment', async () => {
    const uploaded = await upload([{ name: 'budget 2026.csv', size: 2048, type: 'text/csv' }]);
    expect(uploaded.status).toBe(200);
    const attachmentId = uploaded.body.files[0]!.id;
    const created = await api<DraftSaved>('POST', '/api/drafts', { version: 0, ...fields('Budget draft', { attachmentIds: [attachmentId] }) });
    expect(created.status).toBe(201);
    expect((await draftCopies(created.body.messageIdHeader))[0]!.source).toContain('filename="budget 2026.csv"');

    const sent = await api<SendResult>('POST', '/api/send', { idempotencyKey: `draft-send-${created.body.id}`, draftId: created.body.id, draftVersion: 1 });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.state).toBe('sent');
    expect(await draftCopies(created.body.messageIdHeader)).toEqual([]);
    const [sentUid] = await uidsByMessageId(imap, 'Sent', sent.body.messageIdHeader);
    expect((await fetchUid(imap, sentUid!, { source: true })).source!.toString()).toContain('filename="budget 2026.csv"');

    const update = await api('PUT', `/api/drafts/${created.body.id}`, { version: 1, ...fields('too late') });
    expect([update.status, update.body.error]).toEqual([410, 'DraftAlreadySent']);
    expect((await api('DELETE', `/api/drafts/${created.body.id}`)).status).toBe(410);
    const again = await api('POST', '/api/send', { idempotencyKey: `draft-send-again-${created.body.id}`, draftId: created.body.id });
    expect([again.status, again.body.error]).toEqual([410, 'DraftAlreadySent']);
    // Sent, the upload is released.
    expect(await fx.ctx.mailWrites.uploads.existing(fx.alice.accountId, [attachmentId])).toEqual([]);
  });

  test('the From name a draft carries (the account’s display name, set in the engine) is the sent message’s; a line break cannot add a header', async () => {
    const from = { name: 'Alice T. (Work)\r\nBcc: eve@evil.test', email: ALICE.email };
    const created = await api<DraftSaved>('POST', '/api/drafts', { version: 0, ...fields('Named sender', { from }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = await api<SendResult>('POST', '/api/send', { idempotencyKey: `named-sender-${created.body.id}`, draftId: created.body.id, draftVersion: 1 });
    expect(sent.body.state).toBe('sent');
    const [uid] = await uidsByMessageId(imap, 'Sent', sent.body.messageIdHeader);
    const message = await fetchUid(imap, uid!, { envelope: true, source: true });
    expect(message.envelope!.from![0]).toMatchObject({ name: 'Alice T. (Work) Bcc: eve@evil.test', address: ALICE.email });
    expect(message.source!.toString()).not.toMatch(/^Bcc: eve/m);
  });

  test('a retried create with the same clientId, a bad address and an unknown parent are refused', async () => {
    const first = await api<DraftSaved>('POST', '/api/drafts', { version: 0, clientId: 'local-abc123', ...fields('Once') });
    expect(first.status).toBe(201);
    const retry = await api('POST', '/api/drafts', { version: 0, clientId: 'local-abc123', ...fields('Once') });
    expect([retry.status, retry.body.error, retry.body.detail]).toEqual([409, 'DraftAlreadyCreated', { id: first.body.id, version: 1 }]);
    expect(await draftCopies(first.body.messageIdHeader)).toHaveLength(1);

    const bad = await api('POST', '/api/drafts', { version: 0, ...fields('x', { to: ['bob@@kite'] }) });
    expect([bad.status, bad.body.error]).toEqual([400, 'InvalidParameter']);
    const orphan = await api('POST', '/api/drafts', { version: 0, ...fields('Re: x', { inReplyTo: '987654321' }) });
    expect([orphan.status, orphan.body.error]).toEqual([404, 'ParentMessageNotFound']);
  });

  test('a reply draft threads with its parent in the mirror', async () => {
    const parent = (await fx.ctx.store.get<{ id: number; threadId: number }>(`SELECT m.id, m.thread_id AS "threadId" FROM messages m JOIN folders f ON f.id = m.folder_id
      WHERE m.account_id = ? AND f.path = 'INBOX' AND m.message_id_header IS NOT NULL LIMIT 1`, [fx.alice.accountId]))!;
    const saved = await api<DraftSaved>('POST', '/api/drafts', { version: 0, ...fields('Re: something', { inReplyTo: String(parent.id) }) });
    expect(saved.status).toBe(201);
    const draft = await eventually(async () => (await fx.ctx.materializer.message(fx.alice.accountId, Number(saved.body.messageId))) ?? undefined, 5000, 'draft mirrored');
    expect(draft.threadId).toBe(String(parent.threadId));
  });
});

describe('reopening a draft from its message in Drafts (GET /api/drafts/of-message/:id)', () => {
  /** The mirrored message of Drafts with this Message-ID or UID (after the mirror has seen the folder). */
  async function mirroredDraft(where: { header: string } | { uid: number }): Promise<string> {
    await fx.ctx.mirrors.get(fx.alice.accountId)!.resyncNow('Drafts');
    const [column, value] = 'header' in where ? ['m.message_id_header', where.header] : ['m.uid', where.uid];
    const row = await eventually(
      () => fx.ctx.store.get<{ id: number }>(`SELECT m.id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? AND f.path = 'Drafts' AND ${column} = ?`, [fx.alice.accountId, value]),
      5000,
      'the draft mirrored',
    );
    return String(row.id);
  }
  /** UIDs in Drafts now, as another mail program sees them. */
  async function draftUids(): Promise<number[]> {
    await imap.mailboxOpen('Drafts');
    const found = await imap.search({ all: true }, { uid: true });
    return Array.isArray(found) ? found : [];
  }

  test('our draft: the message names the draft with its Bcc; every version of it does', async () => {
    const created = await api<DraftSaved>('POST', '/api/drafts', { version: 0, ...fields('Reopen me') });
    const first = await api<DraftView>('GET', `/api/drafts/of-message/${created.body.messageId}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ id: created.body.id, version: 1, subject: 'Reopen me', bcc: [{ name: '', email: 'carol@kite.test' }] });
    expect(first.body.id).not.toBe(created.body.messageId);
    const updated = await api<DraftSaved>('PUT', `/api/drafts/${created.body.id}`, { version: 1, ...fields('Reopen me, v2') });
    const second = await api<DraftView>('GET', `/api/drafts/of-message/${updated.body.messageId}`);
    expect(second.body).toMatchObject({ id: created.body.id, version: 2, subject: 'Reopen me, v2', bcc: [{ email: 'carol@kite.test' }] });

    const inbox = (await fx.ctx.store.get<{ id: number }>(`SELECT m.id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? AND f.path = 'INBOX' LIMIT 1`, [fx.alice.accountId]))!;
    const notDraft = await api('GET', `/api/drafts/of-message/${inbox.id}`);
    expect([notDraft.status, notDraft.body.error]).toEqual([404, 'DraftDoesNotExist']);
    const bobs = await fx.api<ErrorBody>(fx.bob, 'GET', `/api/drafts/of-message/${updated.body.messageId}`);
    expect([bobs.status, bobs.body.error]).toEqual([404, 'MessageNotFound']);
    await api('POST', '/api/send', { idempotencyKey: `reopen-${created.body.id}`, draftId: created.body.id });
    const sent = await api('GET', `/api/drafts/of-message/${updated.body.messageId}`);
    // Sent: sealed while the mirror still shows its copy, then the copy is gone from Drafts.
    expect(['410 DraftAlreadySent', '404 MessageNotFound']).toContain(`${sent.status} ${sent.body.error}`);
  });

  test('a draft another mail program saved is adopted — Bcc, body, parent, attachment — and its first save replaces that copy', async () => {
    const parent = (await fx.ctx.store.get<{ id: number; header: string }>(`SELECT m.id, m.message_id_header AS header FROM messages m JOIN folders f ON f.id = m.folder_id
      WHERE m.account_id = ? AND f.path = 'INBOX' AND m.message_id_header IS NOT NULL LIMIT 1`, [fx.alice.accountId]))!;
    const header = '<foreign-draft-1@thunderbird.test>';
    const raw = [
      `From: Alice Tern <${ALICE.email}>`,
      `To: Bob Kite <${BOB.email}>`,
      'Bcc: dave@kite.test',
      'Subject: From Thunderbird',
      `Message-ID: ${header}`,
      `In-Reply-To: ${parent.header}`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>Written elsewhere <img src="cid:logo@tb" alt="Logo"></p>',
      '--b1',
      'Content-Type: text/plain; name="notes.txt"',
      'Content-Disposition: attachment; filename="notes.txt"',
      '',
      'The notes.',
      '--b1--',
      '',
    ].join('\r\n');
    await imap.append('Drafts', raw, ['\\Draft', '\\Seen']);
    const messageId = await mirroredDraft({ header });

    const adopted = await api<DraftView>('GET', `/api/drafts/of-message/${messageId}`);
    expect(adopted.status, JSON.stringify(adopted.body)).toBe(200);
    expect(adopted.body).toMatchObject({
      version: 1,
      state: 'open',
      from: { name: 'Alice Tern', email: ALICE.email },
      to: [{ name: 'Bob Kite', email: BOB.email }],
      bcc: [{ name: '', email: 'dave@kite.test' }],
      subject: 'From Thunderbird',
      inReplyTo: String(parent.id),
      attachments: [{ filename: 'notes.txt', contentType: 'text/plain', size: 10 }],
      messageId,
    });
    expect(adopted.body.html).toContain('Written elsewhere');
    // Opened twice, adopted once.
    expect((await api<DraftView>('GET', `/api/drafts/of-message/${messageId}`)).body.id).toBe(adopted.body.id);

    const saved = await api<DraftSaved>('PUT', `/api/drafts/${adopted.body.id}`, {
      version: 1,
      to: adopted.body.to,
      cc: [],
      bcc: adopted.body.bcc,
      subject: 'From Thunderbird, edited',
      html: '<p>Edited here</p>',
      inReplyTo: adopted.body.inReplyTo,
      attachmentIds: adopted.body.attachments.map((file) => file.id),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.messageIdHeader).toBe(header);
    const copies = await draftCopies(header);
    expect(copies.map((copy) => copy.subject)).toEqual(['From Thunderbird, edited']);
    expect(copies[0]!.source).toMatch(/^Bcc: dave@kite\.test\r$/m);
    expect(copies[0]!.source).toContain('filename=notes.txt');
    expect(copies[0]!.source).toMatch(new RegExp(`^In-Reply-To: ${parent.header.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\r$`, 'm'));
  });

  test('one saved without a Message-ID is adopted under a new one; its first save removes the old copy', async () => {
    const raw = ['From: alice@tern.test', 'To: bob@kite.test', 'Subject: No id', 'Content-Type: text/plain; charset=utf-8', '', 'Line one', 'Line two', ''].join('\r\n');
    const appended = await imap.append('Drafts', raw, ['\\Draft']);
    const oldUid = appended && appended.uid;
    expect(oldUid).toBeTruthy();
    const messageId = await mirroredDraft({ uid: oldUid as number });
    const adopted = await api<DraftView>('GET', `/api/drafts/of-message/${messageId}`);
    expect(adopted.body).toMatchObject({ subject: 'No id', html: null, to: [{ email: BOB.email }] });
    expect(adopted.body.text).toContain('Line two');
    expect((await api<DraftView>('GET', `/api/drafts/of-message/${messageId}`)).body.id).toBe(adopted.body.id);
    const saved = await api<DraftSaved>('PUT', `/api/drafts/${adopted.body.id}`, { version: 1, ...fields('No id, saved by us') });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const uids = await draftUids();
    expect(uids).not.toContain(oldUid);
    expect((await draftCopies(saved.body.messageIdHeader)).map((copy) => copy.subject)).toEqual(['No id, saved by us']);
  });
});

describe('uploads', () => {
  test('names are sanitised; programs are refused; sizes are held to 25 MB per file and per request', async () => {
    const ok = await upload([{ name: 'Q3: report "final" #2?.pdf', size: 1000, type: 'application/pdf' }]);
    expect(ok.status).toBe(200);
    expect(ok.body.files[0]).toMatchObject({ filename: 'Q3_ report _final_ _2_.pdf', size: 1000, contentType: 'application/pdf' });

    for (const name of ['setup.exe', 'invoice.pdf.EXE', 'run.bat', 'x.js', 'tool.jar']) {
      const refused = await upload([{ name, size: 10 }]);
      expect([refused.status, refused.body.error], name).toEqual([400, 'FileExtensionNotAllowed']);
    }
    const empty = await upload([{ name: 'empty.txt', size: 0 }]);
    expect([empty.status, empty.body.error]).toEqual([403, 'InvalidFileSize']);
    const big = await upload([{ name: 'big.bin', size: 25 * 1024 * 1024 + 1 }]);
    expect([big.status, big.body.error]).toEqual([403, 'InvalidFileSize']);
    const together = await upload([
      { name: 'a.bin', size: 13 * 1024 * 1024 },
      { name: 'b.bin', size: 13 * 1024 * 1024 },
    ]);
    expect([together.status, together.body.error]).toEqual([403, 'InvalidFileSize']);
    // All or nothing: the first of the two is not left behind.
    const count = (await fx.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM uploads WHERE filename IN ('a.bin', 'b.bin')"))!;
    expect(count.n).toBe(0);
  });

  test('a message whose attachments add up past 25 MB is MessageSizeExceeded', async () => {
    const a = await upload([{ name: 'a.bin', size: 13 * 1024 * 1024 }]);
    const b = await upload([{ name: 'b.bin', size: 13 * 1024 * 1024 }]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const ids = [a.body.files[0]!.id, b.body.files[0]!.id];
    const draft = await api('POST', '/api/drafts', { version: 0, ...fields('Too big', { attachmentIds: ids }) });
    expect([draft.status, draft.body.error]).toEqual([400, 'MessageSizeExceeded']);
    const sent = await api('POST', '/api/send', { idempotencyKey: 'too-big-0001', compose: fields('Too big', { attachmentIds: ids }) });
    expect([sent.status, sent.body.error]).toEqual([400, 'MessageSizeExceeded']);
  });

  test('uploads belong to the account that made them', async () => {
    const mine = await upload([{ name: 'mine.txt', size: 10 }]);
    const theirs = await fx.api<ErrorBody>(fx.bob, 'POST', '/api/drafts', { version: 0, ...fields('x', { attachmentIds: [mine.body.files[0]!.id] }) });
    expect([theirs.status, theirs.body.error]).toEqual([404, 'FileNotFound']);
    expect((await fx.api(fx.bob, 'DELETE', `/api/files/${mine.body.files[0]!.id}`)).status).toBe(404);
    expect((await api('DELETE', `/api/files/${mine.body.files[0]!.id}`)).status).toBe(204);
  });
});

// Dovecot reached through a fault-injecting proxy (test/crash/fault-proxy.ts) that lets an APPEND
// be stored and cuts the gateway's connection before its OK: a save killed between its APPEND and
// what follows. The gateway is then restarted on the same data dir, as after a crash.
describe('draft saves cut off after their APPEND', () => {
  let proxy: FaultProxy;
  const imapPort = (port: number) => fx.ctx.store.run('UPDATE accounts SET imap_port = ? WHERE id = ?', [port, fx.alice.accountId]);
  const saveUnderWay = (where: string, value: string | number) =>
    fx.ctx.store.get<{ id: number; savingSince: number | null }>(`SELECT id, saving_since AS "savingSince" FROM drafts WHERE ${where} = ?`, [value]);
  /** Drafts copies whose subject has the marker, as alice's own IMAP client sees them. */
  async function copiesBySubject(marker: string) {
    await imap.mailboxOpen('Drafts');
    const uids = await imap.search({ subject: marker }, { uid: true });
    const copies = [];
    for (const uid of Array.isArray(uids) ? uids : []) copies.push((await fetchUid(imap, uid, { envelope: true })).envelope!.subject);
    return copies;
  }

  beforeAll(async () => {
    proxy = await startFaultProxy({ host: fx.servers.host, port: fx.servers.ports.imap });
    await imapPort(proxy.port);
    await fx.restart({ sendWaitMs: 20_000 });
  });
  afterAll(async () => {
    await imapPort(fx.servers.ports.imap);
    await fx.restart({ sendWaitMs: 20_000 });
    await proxy?.close();
  });

  test('a create: its retry with the same clientId names the first draft, and after a restart Drafts holds exactly one copy', async () => {
    const marker = `cc${Math.random().toString(36).slice(2, 9)}`;
    const clientId = `local-${marker}`;
    const cut = proxy.arm('imap-drop-after-append');
    const first = await api<DraftSaved>('POST', '/api/drafts', { version: 0, clientId, ...fields(`Crash create ${marker}`) });
    await cut;
    expect(first.status).toBeGreaterThanOrEqual(500);
    await fx.restart({ sendWaitMs: 20_000 });
    await eventually(async () => (await saveUnderWay('client_id', clientId))?.savingSince === null, 15_000, 'the unfinished create put right');
    expect(await copiesBySubject(marker)).toEqual([`Crash create ${marker}`]);

    const retry = await api('POST', '/api/drafts', { version: 0, clientId, ...fields(`Crash create ${marker}`) });
    const id = String((await saveUnderWay('client_id', clientId))!.id);
    expect([retry.status, retry.body.error, retry.body.detail]).toEqual([409, 'DraftAlreadyCreated', { id, version: 1 }]);
    const saved = await api<DraftSaved>('PUT', `/api/drafts/${id}`, { version: 1, ...fields(`Crash create ${marker} v2`) });
    expect([saved.status, saved.body.version]).toEqual([200, 2]);
    expect(await copiesBySubject(marker)).toEqual([`Crash create ${marker} v2`]);
  });

  test('what a kill before the APPEND leaves: an open draft with no copy is APPENDed from SQLite; a deleted one’s leftover copy goes', async () => {
    const marker = `cb${Math.random().toString(36).slice(2, 9)}`;
    const store = new DraftStore(fx.ctx.store);
    const fieldsOf = (subject: string) => ({ from: null, to: [{ name: 'Bob', email: BOB.email }], cc: [], bcc: [], subject, html: null, text: `${subject} body`, attachmentIds: [] });
    const parent = { parentId: null, inReplyTo: null, references: [] };
    // As a create leaves it when killed between recording the draft and its APPEND:
    const unsaved = await store.insert({ accountId: fx.alice.accountId, clientId: `local-${marker}`, messageIdHeader: `<${marker}-a@tern.test>`, folderPath: 'Drafts', uid: null, fields: fieldsOf(`Before append ${marker}`), parent, attachmentIds: [], saving: true });
    // A draft deleted while its save was under way, one copy left on the server:
    const deleted = await store.insert({ accountId: fx.alice.accountId, clientId: null, messageIdHeader: `<${marker}-d@tern.test>`, folderPath: 'Drafts', uid: null, fields: fieldsOf(`Deleted ${marker}`), parent, attachmentIds: [], saving: true });
    await store.transition(deleted.id, ['open'], 'deleted');
    await imap.append('Drafts', Buffer.from(`Message-ID: <${marker}-d@tern.test>\r\nSubject: Deleted ${marker}\r\n\r\nleft over\r\n`), ['\\Draft']);

    await fx.restart({ sendWaitMs: 20_000 });
    await eventually(async () => (await saveUnderWay('id', unsaved.id))?.savingSince === null && (await saveUnderWay('id', deleted.id))?.savingSince === null, 15_000, 'both saves put right');
    expect(await copiesBySubject(marker)).toEqual([`Before append ${marker}`]);
    const view = await api<DraftView>('GET', `/api/drafts/${unsaved.id}`);
    expect(view.body.messageId).not.toBeNull(); // the recorded copy is the mirrored one
  });

  test('an update: after a restart the recorded version is the one copy left, and saving again works', async () => {
    const marker = `cu${Math.random().toString(36).slice(2, 9)}`;
    const created = await api<DraftSaved>('POST', '/api/drafts', { version: 0, ...fields(`Crash update ${marker} v1`) });
    expect(created.status).toBe(201);
    const cut = proxy.arm('imap-drop-after-append');
    const update = await api('PUT', `/api/drafts/${created.body.id}`, { version: 1, ...fields(`Crash update ${marker} v2`) });
    await cut;
    expect(update.status).toBeGreaterThanOrEqual(500);
    await fx.restart({ sendWaitMs: 20_000 });
    await eventually(async () => (await saveUnderWay('id', Number(created.body.id)))?.savingSince === null, 15_000, 'the unfinished update put right');
    expect(await copiesBySubject(marker)).toEqual([`Crash update ${marker} v1`]);
    expect(await draftCopies(created.body.messageIdHeader)).toHaveLength(1);

    const again = await api<DraftSaved>('PUT', `/api/drafts/${created.body.id}`, { version: 1, ...fields(`Crash update ${marker} v2`) });
    expect([again.status, again.body.version]).toEqual([200, 2]);
    expect(await copiesBySubject(marker)).toEqual([`Crash update ${marker} v2`]);
  });
});

