import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
// Reading routes (folders, threads, messages) on a real gateway mirroring a real Dovecot
// with a seeded mailbox: folder commands and their errors as IMAP sees them, thread
// paging, bodies, downloads byte for byte, and bad input answered from the catalogue.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Folder, MessageBody } from '../../shared/api/mail';
import type { SqlValue } from '../../src-server/store/sql';
import {
  folderListResponseSchema,
  folderResponseSchema,
  threadCountResponseSchema,
  threadDetailResponseSchema,
  threadListResponseSchema,
  trashFolderResponseSchema,
} from '../../shared/api/reading';
import { PDF_INVOICE, PNG_LOGO } from '../harness/seed/assets';
import { SEED_FOLDERS } from '../harness/seed/seed-mailbox';
import { tortureMessages } from '../harness/seed/torture';
import { appendMessages, eventually, startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

let fx: GatewayFixture;
beforeAll(async () => {
  fx = await startGatewayFixture({ name: 'reading', count: 500 });
  await fx.mirror.whenFullyMirrored;
});
afterAll(() => fx?.close());

function api(path: string, init: { method?: string; body?: unknown; token?: string | null } = {}): Promise<Response> {
  const token = init.token === undefined ? fx.token : init.token;
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${fx.baseUrl}${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

async function expectError(response: Response | Promise<Response>, status: number, error: string): Promise<void> {
  const reply = await response;
  const body = (await reply.json()) as { error?: string; description?: string };
  expect({ status: reply.status, error: body.error }).toEqual({ status, error });
  expect(typeof body.description).toBe('string');
}

async function folders(): Promise<Folder[]> {
  return folderListResponseSchema.parse(await (await api('/api/folders')).json()).folders;
}
const folderAt = async (path: string) => (await folders()).find((folder) => folder.path === path);

/** What IMAP itself lists, through another client: the ground truth for folder commands. */
async function serverPaths(): Promise<string[]> {
  const client = await fx.otherClient();
  try {
    return (await client.list()).map((entry) => entry.path).sort();
  } finally {
    await client.logout();
  }
}

const sql = <T>(query: string, ...params: SqlValue[]) => fx.ctx.store.all<T>(query, params);

describe('folders', () => {
  test('the list has every seeded folder with IMAP-true counts, special-use, nesting and the separator', async () => {
    const reply = folderListResponseSchema.parse(await (await api('/api/folders')).json());
    expect(reply.separator).toBe('/');
    expect(reply.folders.map((folder) => folder.path).sort()).toEqual([...SEED_FOLDERS].sort());
    expect(reply.folders[0]?.specialUse).toBe('inbox'); // special folders first
    for (const folder of reply.folders) expect(folder.total, folder.path).toBe(fx.seeded.byFolder[folder.path] ?? 0);
    const byPath = new Map(reply.folders.map((folder) => [folder.path, folder]));
    expect(byPath.get('Projects/2026')?.parentId).toBe(byPath.get('Projects')?.id);
    expect(byPath.get('Sent')?.specialUse).toBe('sent');
    expect(byPath.get('Trash')?.specialUse).toBe('trash');
  });

  test('create, nested create, rename, move and trash reach the server; ids and messages survive renames', async () => {
    const created = await api('/api/folders', { method: 'POST', body: { name: 'Receipts' } });
    expect(created.status).toBe(201);
    const receipts = folderResponseSchema.parse(await created.json());
    expect(receipts.folder).toMatchObject({ path: 'Receipts', name: 'Receipts', parentId: null, total: 0 });
    expect(receipts.latestTxnId).toBeGreaterThan(0);
    expect(await serverPaths()).toContain('Receipts');

    const projects = (await folderAt('Projects'))!;
    const nested = folderResponseSchema.parse(await (await api('/api/folders', { method: 'POST', body: { name: 'Ünïcødé 2027', parentId: projects.id } })).json());
    expect(nested.folder).toMatchObject({ path: 'Projects/Ünïcødé 2027', parentId: projects.id });
    expect(await serverPaths()).toContain('Projects/Ünïcødé 2027');

    // A message in the folder, so the rename has something to keep.
    const client = await fx.otherClient();
    try {
      await client.append('Receipts', 'From: shop@example.com\r\nTo: alice@tern.test\r\nSubject: Your receipt\r\nMessage-ID: <receipt-1@example.com>\r\n\r\nThanks!\r\n');
    } finally {
      await client.logout();
    }
    await fx.mirror.resyncNow('Receipts');
    const [message] = await sql<{ id: number }>('SELECT id FROM messages WHERE folder_id = ?', Number(receipts.folder.id));
    expect(message).toBeDefined();

    const renamed = folderResponseSchema.parse(await (await api(`/api/folders/${receipts.folder.id}`, { method: 'PUT', body: { name: 'Bills' } })).json());
    expect(renamed.folder).toMatchObject({ id: receipts.folder.id, path: 'Bills', name: 'Bills', total: 1 });
    expect(await serverPaths()).toEqual(expect.arrayContaining(['Bills']));
    expect(await serverPaths()).not.toContain('Receipts');
    expect(await sql('SELECT id FROM messages WHERE folder_id = ?', Number(receipts.folder.id))).toEqual([message]);

    const moved = folderResponseSchema.parse(await (await api('/api/folders/move', { method: 'POST', body: { folderId: receipts.folder.id, parentId: projects.id } })).json());
    expect(moved.folder).toMatchObject({ id: receipts.folder.id, path: 'Projects/Bills', parentId: projects.id });
    const back = folderResponseSchema.parse(await (await api('/api/folders/move', { method: 'POST', body: { folderId: receipts.folder.id, parentId: null } })).json());
    expect(back.folder).toMatchObject({ id: receipts.folder.id, path: 'Bills', parentId: null });

    const trashed = trashFolderResponseSchema.parse(await (await api('/api/folders/trash', { method: 'POST', body: { folderId: receipts.folder.id } })).json());
    expect(trashed).toMatchObject({ deleted: false, folder: { id: receipts.folder.id, path: 'Trash/Bills', parentId: (await folderAt('Trash'))!.id } });
    const deleted = trashFolderResponseSchema.parse(await (await api('/api/folders/trash', { method: 'POST', body: { folderId: receipts.folder.id } })).json());
    expect(deleted).toEqual({ deleted: true, folder: null, latestTxnId: expect.any(Number) });
    expect((await serverPaths()).filter((path) => path.includes('Bills'))).toEqual([]);
    expect(await folderAt('Trash/Bills')).toBeUndefined();
    // The delta tells other clients the folder is gone.
    const changes = (await fx.delta(trashed.latestTxnId)).changes;
    expect(changes).toContainEqual(expect.objectContaining({ op: 'delete', object: 'folder', objectId: receipts.folder.id }));
  });

  test('a folder with subfolders goes to Trash whole, a second delete removes it all; a name taken in Trash gets a number', async () => {
    const old = folderResponseSchema.parse(await (await api('/api/folders', { method: 'POST', body: { name: 'Old' } })).json()).folder;
    await api('/api/folders', { method: 'POST', body: { name: '2019', parentId: old.id } });
    const first = trashFolderResponseSchema.parse(await (await api('/api/folders/trash', { method: 'POST', body: { folderId: old.id } })).json());
    expect(first.folder?.path).toBe('Trash/Old');
    expect((await folderAt('Trash/Old/2019'))?.parentId).toBe(old.id);
    const again = folderResponseSchema.parse(await (await api('/api/folders', { method: 'POST', body: { name: 'Old' } })).json()).folder;
    const second = trashFolderResponseSchema.parse(await (await api('/api/folders/trash', { method: 'POST', body: { folderId: again.id } })).json());
    expect(second.folder?.path).toBe('Trash/Old 2');
    for (const id of [old.id, again.id]) await api('/api/folders/trash', { method: 'POST', body: { folderId: id } });
    expect((await serverPaths()).filter((path) => path.startsWith('Trash/'))).toEqual([]);
  });

  test('each folder error comes from the catalogue, and refused names never reach the server', async () => {
    const before = await serverPaths();
    const inbox = (await folderAt('INBOX'))!;
    const sent = (await folderAt('Sent'))!;
    const projects = (await folderAt('Projects'))!;
    const child = (await folderAt('Projects/2026'))!;
    await expectError(api('/api/folders', { method: 'POST', body: { name: 'x'.repeat(256) } }), 400, 'FolderNameLengthExceeded');
    for (const name of ['evil\r\nA1 DELETE INBOX', 'nul\u0000byte', 'a/b', '50%', 'star*', 'lit {5}', 'lit {12+}', '   ', '..']) {
      await expectError(api('/api/folders', { method: 'POST', body: { name } }), 400, 'InvalidParameter');
    }
    await expectError(api(`/api/folders/${projects.id}`, { method: 'PUT', body: { name: 'x\ny' } }), 400, 'InvalidParameter');
    await expectError(api('/api/folders', { method: 'POST', body: { name: 'Archive' } }), 403, 'FolderAlreadyExist');
    await expectError(api('/api/folders', { method: 'POST', body: { name: 'inbox' } }), 403, 'FolderAlreadyExist');
    await expectError(api('/api/folders', { method: 'POST', body: { name: '2026', parentId: projects.id } }), 403, 'FolderAlreadyExist');
    await expectError(api(`/api/folders/${projects.id}`, { method: 'PUT', body: { name: 'Newsletters' } }), 403, 'FolderAlreadyExist');
    for (const special of [inbox, sent]) {
      await expectError(api(`/api/folders/${special.id}`, { method: 'PUT', body: { name: 'Renamed' } }), 400, 'SpecialFolder');
      await expectError(api('/api/folders/move', { method: 'POST', body: { folderId: special.id, parentId: projects.id } }), 400, 'SpecialFolder');
      await expectError(api('/api/folders/trash', { method: 'POST', body: { folderId: special.id } }), 400, 'SpecialFolder');
    }
    await expectError(api('/api/folders/move', { method: 'POST', body: { folderId: projects.id, parentId: child.id } }), 400, 'InvalidParameter');
    await expectError(api('/api/folders/move', { method: 'POST', body: { folderId: projects.id, parentId: '999999' } }), 404, 'TargetFolderNotExists');
    await expectError(api('/api/folders/999999', { method: 'PUT', body: { name: 'Nope' } }), 404, 'FolderNotFound');
    await expectError(api('/api/folders/trash', { method: 'POST', body: { folderId: '999999' } }), 404, 'FolderNotFound');
    await expectError(api('/api/folders', { method: 'POST', body: { name: 'Orphan', parentId: '999999' } }), 404, 'FolderNotFound');
    // Shapes zod refuses: InvalidRequestData.
    await expectError(api('/api/folders', { method: 'POST', body: { name: 42 } }), 400, 'InvalidRequestData');
    await expectError(api('/api/folders', { method: 'POST', body: { name: 'ok', extra: true } }), 400, 'InvalidRequestData');
    await expectError(api('/api/folders/abc', { method: 'PUT', body: { name: 'x' } }), 400, 'InvalidRequestData');
    await expectError(api('/api/folders/move', { method: 'POST', body: { folderId: projects.id } }), 400, 'InvalidRequestData');
    await expectError(api('/api/folders/trash', { method: 'POST' }), 400, 'InvalidRequestData');
    expect(await serverPaths()).toEqual(before);
  });

  test('without a valid token nothing is listed or changed', async () => {
    await expectError(api('/api/folders', { token: null }), 400, 'TokenParamMissing');
    await expectError(api('/api/folders', { token: 'forged' }), 401, 'InvalidToken');
    await expectError(api('/api/folders', { method: 'POST', body: { name: 'Sneaky' }, token: 'forged' }), 401, 'InvalidToken');
    expect(await serverPaths()).not.toContain('Sneaky');
  });
});

describe('threads', () => {
  test('a folder pages by time: every thread once, newest first, no gaps', async () => {
    const inbox = (await folderAt('INBOX'))!;
    const expected = await sql<{ threadId: number; at: number }>(
      'SELECT thread_id AS "threadId", MAX(received_at) AS at FROM messages WHERE folder_id = ? GROUP BY thread_id',
      Number(inbox.id),
    );
    const seen: string[] = [];
    const times: number[] = [];
    let before: number | null = null;
    let pages = 0;
    const started = performance.now();
    do {
      const query: string = `/api/threads?folderId=${inbox.id}&limit=25${before === null ? '' : `&before=${before}`}`;
      const page = threadListResponseSchema.parse(await (await api(query)).json());
      pages++;
      expect(page.threads.length).toBeGreaterThan(0);
      for (const thread of page.threads) {
        seen.push(thread.id);
        times.push(expected.find((row) => String(row.threadId) === thread.id)!.at);
        expect(thread.folderIds).toContain(inbox.id);
      }
      if (page.nextBefore !== null) expect(page.nextBefore).toBe(times[times.length - 1]);
      before = page.nextBefore;
    } while (before !== null && pages < 100);
    const perPage = (performance.now() - started) / pages;
    console.log(`[reading] INBOX thread list: ${seen.length} threads in ${pages} pages of 25, ${perPage.toFixed(1)} ms per page over HTTP`);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set(expected.map((row) => String(row.threadId))));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  test('count gives the threads and the unread threads of a folder', async () => {
    for (const path of ['INBOX', 'Sent', 'Newsletters']) {
      const folder = (await folderAt(path))!;
      const [truth] = await sql<{ total: number; unread: number }>(
        `SELECT COUNT(DISTINCT thread_id) AS total, COUNT(DISTINCT CASE WHEN flags NOT LIKE '%Seen%' THEN thread_id END) AS unread FROM messages WHERE folder_id = ?`,
        Number(folder.id),
      );
      expect(threadCountResponseSchema.parse(await (await api(`/api/threads/count?folderId=${folder.id}`)).json()), path).toEqual(truth);
    }
  });

  test('a thread holds its INBOX messages and its replies in Sent, oldest first', async () => {
    const [pair] = await sql<{ threadId: number }>(
      `SELECT m.thread_id AS "threadId" FROM messages m JOIN folders f ON f.id = m.folder_id
       GROUP BY m.thread_id HAVING SUM(CASE WHEN f.path = 'INBOX' THEN 1 ELSE 0 END) > 0 AND SUM(CASE WHEN f.path = 'Sent' THEN 1 ELSE 0 END) > 0 LIMIT 1`,
    );
    const reply = threadDetailResponseSchema.parse(await (await api(`/api/threads/${pair!.threadId}`)).json());
    const inbox = (await folderAt('INBOX'))!;
    const sent = (await folderAt('Sent'))!;
    expect(reply.thread.folderIds).toEqual(expect.arrayContaining([inbox.id, sent.id]));
    expect(reply.messages.map((message) => message.id)).toEqual(reply.thread.messageIds);
    expect(new Set(reply.messages.map((message) => message.folderId))).toEqual(new Set(reply.thread.folderIds));
    const dates = reply.messages.map((message) => message.date);
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(reply.messages.every((message) => message.threadId === String(pair!.threadId))).toBe(true);
  });

  test('bad ids and query parameters are catalogue errors', async () => {
    const inbox = (await folderAt('INBOX'))!;
    await expectError(api('/api/threads/99999999'), 404, 'ThreadNotFound');
    await expectError(api('/api/threads/abc'), 400, 'InvalidRequestData');
    await expectError(api('/api/threads/0'), 400, 'InvalidRequestData');
    await expectError(api('/api/threads'), 400, 'InvalidRequestData');
    await expectError(api('/api/threads?folderId=abc'), 400, 'InvalidRequestData');
    await expectError(api('/api/threads?folderId=999999'), 404, 'FolderNotFound');
    await expectError(api(`/api/threads?folderId=${inbox.id}&limit=0`), 400, 'InvalidRequestData');
    await expectError(api(`/api/threads?folderId=${inbox.id}&limit=5000`), 400, 'InvalidRequestData');
    await expectError(api(`/api/threads?folderId=${inbox.id}&before=yesterday`), 400, 'InvalidRequestData');
    await expectError(api(`/api/threads?folderId=${inbox.id}&folderId=2`), 400, 'InvalidRequestData');
    await expectError(api('/api/threads/count?folderId=999999'), 404, 'FolderNotFound');
    await expectError(api(`/api/threads?folderId=${inbox.id}`, { token: 'forged' }), 401, 'InvalidToken');
  });
});

describe('messages', () => {
  const body = async (id: number | string) => (await (await api(`/api/messages/${id}/body`)).json()) as MessageBody;
  const rowWith = async (where: string) => (await sql<{ id: number; uid: number; path: string; attachments_json: string; flags: string }>(
    `SELECT m.id, m.uid, f.path, m.attachments_json, m.flags FROM messages m JOIN folders f ON f.id = m.folder_id WHERE ${where} ORDER BY m.id LIMIT 1`,
  ))[0]!;

  test('an HTML newsletter: html, text and the headers that matter; fetched once, then cached', async () => {
    const row = await rowWith(`f.path = 'Newsletters'`);
    const started = performance.now();
    const first = await api(`/api/messages/${row.id}/body`);
    const uncachedMs = performance.now() - started;
    const parsed = (await first.json()) as MessageBody;
    expect(first.headers.get('server-timing')).toContain('imap');
    expect(parsed.messageId).toBe(String(row.id));
    expect(parsed.html).toMatch(/<(html|table|div|p)\b/i);
    expect(parsed.headers['list-unsubscribe']).toMatch(/^<https:\/\/[^>]+>,\s*<mailto:/);
    expect(parsed.headers.from).toContain('@');
    expect(parsed.headers['message-id']).toMatch(/^<.+>$/);
    expect(new Date(parsed.headers.date!).getTime()).toBeGreaterThan(0);
    const again = Date.now();
    const second = await api(`/api/messages/${row.id}/body`);
    const cachedMs = Date.now() - again;
    expect(second.headers.get('server-timing')).toContain('cached');
    expect(await second.json()).toEqual(parsed);
    console.log(`[reading] body over HTTP: uncached ${uncachedMs.toFixed(1)} ms, cached ${cachedMs.toFixed(1)} ms`);
  });

  test('the inline-cid message: its HTML references the image, which is listed with its contentId and real size', async () => {
    const row = await rowWith(`m.attachments_json LIKE '%"contentId":"logo.%'`);
    const parsed = await body(row.id);
    const logo = parsed.attachments.find((attachment) => attachment.contentId?.startsWith('logo.'));
    expect(logo).toBeDefined();
    expect(parsed.html).toContain(`cid:${logo!.contentId}`);
    expect(logo).toMatchObject({ contentType: 'image/png', size: PNG_LOGO.bytes.length });
    expect(parsed.text).toBeTruthy();
  });

  test('attachments download with safe headers and exactly the bytes that were attached', async () => {
    const row = await rowWith(`m.attachments_json LIKE '%application/pdf%' AND m.attachments_json LIKE '%"contentId":"logo.%'`);
    const stored = JSON.parse(row.attachments_json) as { index: number; contentType: string; filename: string }[];
    const pdf = stored.find((attachment) => attachment.contentType === 'application/pdf')!;
    const png = stored.find((attachment) => attachment.contentType === 'image/png')!;
    const reply = await api(`/api/messages/${row.id}/attachments/${pdf.index}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/pdf');
    expect(reply.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''[A-Za-z0-9%!#$&+\-.^_`|~]+$/);
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(reply.headers.get('cache-control')).toBe('private');
    expect(Buffer.from(await reply.arrayBuffer()).equals(PDF_INVOICE.bytes)).toBe(true);
    const image = await api(`/api/messages/${row.id}/attachments/${png.index}`);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG_LOGO.bytes)).toBe(true);
  });

  test('a non-ASCII file name survives as UTF-8 in filename* and as an ASCII fallback', async () => {
    const row = await rowWith(`m.attachments_json LIKE '%見積書.pdf%' OR m.attachments_json LIKE '%Müller%'`);
    const stored = (JSON.parse(row.attachments_json) as { index: number; filename: string }[]).find((attachment) => /[^\x00-\x7f]/.test(attachment.filename))!;
    const reply = await api(`/api/messages/${row.id}/attachments/${stored.index}`);
    const disposition = reply.headers.get('content-disposition')!;
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1]!;
    expect(decodeURIComponent(encoded)).toBe(stored.filename);
    expect(/filename="([^"]*)"/.exec(disposition)![1]).toMatch(/^[\x20-\x7e]+$/);
    expect(Buffer.from(await reply.arrayBuffer()).equals(PDF_INVOICE.bytes)).toBe(true);
  });

  test('the original is the source IMAP holds, as a message/rfc822 download', async () => {
    const row = await rowWith(`f.path = 'Sent'`);
    const reply = await api(`/api/messages/${row.id}/original`);
    expect(reply.headers.get('content-type')).toBe('message/rfc822');
    expect(reply.headers.get('content-disposition')).toMatch(/^attachment; .*\.eml/);
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const client = await fx.otherClient();
    try {
      await client.mailboxOpen('Sent');
      const message = await client.fetchOne(String(row.uid), { source: true }, { uid: true });
      expect(message && message.source).toBeTruthy();
      expect(Buffer.from(await reply.arrayBuffer()).equals(message ? message.source! : Buffer.alloc(0))).toBe(true);
    } finally {
      await client.logout();
    }
  });

  test('reading a body leaves an unread message unread', async () => {
    const row = await rowWith(`f.path = 'INBOX' AND m.flags NOT LIKE '%Seen%'`);
    await body(row.id);
    const client = await fx.otherClient();
    try {
      await client.mailboxOpen('INBOX');
      const message = await client.fetchOne(String(row.uid), { flags: true }, { uid: true });
      expect(message && message.flags?.has('\\Seen')).toBe(false);
    } finally {
      await client.logout();
    }
  });

  test('missing messages, parts and bad ids are catalogue errors', async () => {
    const row = await rowWith(`m.attachments_json <> '[]'`);
    await expectError(api('/api/messages/99999999/body'), 404, 'MessageNotFound');
    await expectError(api('/api/messages/99999999/original'), 404, 'MessageNotFound');
    await expectError(api('/api/messages/99999999/attachments/0'), 404, 'MessageNotFound');
    await expectError(api(`/api/messages/${row.id}/attachments/99`), 404, 'FileNotFound');
    await expectError(api('/api/messages/abc/body'), 400, 'InvalidRequestData');
    await expectError(api(`/api/messages/${row.id}/attachments/-1`), 400, 'InvalidRequestData');
    await expectError(api(`/api/messages/${row.id}/attachments/x`), 400, 'InvalidRequestData');
    await expectError(api(`/api/messages/${row.id}/body`, { token: null }), 400, 'TokenParamMissing');
    await expectError(api(`/api/messages/${row.id}/original`, { token: 'forged' }), 401, 'InvalidToken');
  });

  test('a message deleted on the server since it was mirrored is MessageNotFound, not a crash', async () => {
    const row = await rowWith(`f.path = 'Archive'`);
    const client = await fx.otherClient();
    try {
      await client.mailboxOpen('Archive');
      await client.messageDelete(String(row.uid), { uid: true });
    } finally {
      await client.logout();
    }
    // The mirror has not caught up yet (or has: then the row is gone) — either way a 404.
    await expectError(api(`/api/messages/${row.id}/original`), 404, 'MessageNotFound');
    await eventually(async () => (await fx.ctx.materializer.messageRow(fx.accountId, row.id)) === undefined, 20_000, 'the mirror to drop the message');
    await expectError(api(`/api/messages/${row.id}/body`), 404, 'MessageNotFound');
  });
});

describe('received through Postfix and Dovecot: the body chosen by RFC 2046/2183, exact attachment sizes', () => {
  /** Files whose base64 ends in each padding (0, 1 and 2 "="): the encoded size alone cannot tell their size to the byte. */
  const files = [1200, 1201, 1202, 70_001].map((size, i) => ({ name: `file-${size}.bin`, bytes: Buffer.alloc(size, i + 1) }));
  const base64Lines = (bytes: Buffer) => bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
  const subject = `Report with an HTML page and files ${Date.now()}`;
  const source = [
    'From: Ann <ann@kite.test>', 'To: Alice Tern <alice@tern.test>', `Subject: ${subject}`, 'Message-ID: <body-choice@kite.test>', 'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="mixed"', '',
    '--mixed', 'Content-Type: text/plain; charset=utf-8', '', 'The body, in plain text.', '',
    '--mixed', 'Content-Type: text/html; charset=utf-8', 'Content-Disposition: inline', '', '<p>An attached HTML page</p>', '',
    ...files.flatMap((file) => [
      '--mixed', `Content-Type: application/octet-stream; name="${file.name}"`, 'Content-Transfer-Encoding: base64', `Content-Disposition: attachment; filename="${file.name}"`, '',
      base64Lines(file.bytes), '',
    ]),
    '--mixed--', '',
  ].join('\r\n');

  test('a text/plain body followed by an inline text/html part: the plain text is the body, the HTML an attachment; sizes exact once opened', async () => {
    await fx.send({ envelope: { from: 'ann@kite.test', to: ['alice@tern.test'] }, raw: source });
    const row = await eventually(
      async () => (await sql<{ id: number; snippet: string; attachments_json: string }>('SELECT id, snippet, attachments_json FROM messages WHERE subject = ?', subject))[0],
      15_000,
      'the message mirrored',
    );
    expect(row.snippet).toBe('The body, in plain text.');
    const listed = JSON.parse(row.attachments_json) as { contentType: string; filename: string; size: number }[];
    expect(listed.map((attachment) => attachment.contentType)).toEqual(['text/html', ...files.map(() => 'application/octet-stream')]);
    // Before the body is read, the sizes are the mirror's estimate from the encoded size: not exact for every padding.
    const estimates = listed.filter((attachment) => attachment.filename.startsWith('file-')).map((attachment) => attachment.size);
    console.log(`[reading] attachment sizes before opening: ${estimates.join(', ')} (exact: ${files.map((file) => file.bytes.length).join(', ')})`);
    const reply = await api(`/api/messages/${row.id}/body`);
    expect(reply.status).toBe(200);
    const parsed = (await reply.json()) as MessageBody;
    expect(parsed.html).toBeNull();
    expect(parsed.text?.trim()).toBe('The body, in plain text.');
    expect(parsed.attachments.filter((attachment) => attachment.filename.startsWith('file-')).map((attachment) => [attachment.filename, attachment.size])).toEqual(
      files.map((file) => [file.name, file.bytes.length]),
    );
    const page = parsed.attachments.find((attachment) => attachment.contentType === 'text/html')!;
    const download = await api(`/api/messages/${row.id}/attachments/${page.index}`);
    expect(await download.text()).toContain('<p>An attached HTML page</p>');
  });

  test('the exact sizes measured on opening replace the mirror’s estimate for every client (the row and the delta)', async () => {
    const [row] = await sql<{ id: number; attachments_json: string }>('SELECT id, attachments_json FROM messages WHERE subject = ?', subject);
    const sizes = (json: string) => (JSON.parse(json) as { filename: string; size: number }[]).filter((a) => a.filename.startsWith('file-')).map((a) => a.size);
    const exact = files.map((file) => file.bytes.length);
    // Opened by the test before: the row now holds what the parse measured, and a client catching up sees it.
    expect(sizes(row!.attachments_json)).toEqual(exact);
    let meta;
    for (let cursor = 0, more = true; more; ) {
      const page = await fx.delta(cursor);
      for (const change of page.changes) if (change.op === 'upsert' && change.object === 'message' && change.data.id === String(row!.id)) meta = change.data;
      ({ cursor, hasMore: more } = page);
    }
    expect(meta?.attachments.filter((a) => a.filename.startsWith('file-')).map((a) => a.size)).toEqual(exact);
    // A body cached while the row still held estimates (as before this fix) corrects the row when read from the cache.
    const estimated = (JSON.parse(row!.attachments_json) as { size: number }[]).map((a) => ({ ...a, size: a.size + 1 }));
    await fx.ctx.store.run('UPDATE messages SET attachments_json = ? WHERE id = ?', [JSON.stringify(estimated), row!.id]);
    const again = await api(`/api/messages/${row!.id}/body`);
    expect(again.headers.get('server-timing')).toContain('cached');
    const [corrected] = await sql<{ attachments_json: string }>('SELECT attachments_json FROM messages WHERE id = ?', row!.id);
    expect(sizes(corrected!.attachments_json)).toEqual(exact);
  });
});

describe('MIME header torture set through Dovecot (RFC 2047 words with raw 8-bit bytes, RFC 6532, split words)', () => {
  test('all 112 messages are mirrored with the subject and sender name they were written with: no U+FFFD, no mojibake', async () => {
    const set = tortureMessages({ to: 'Alice Tern <alice@tern.test>' });
    await appendMessages(fx, 'INBOX', set.map((message) => message.source));
    const emails = set.map((message) => message.email);
    const wanted = new Set(emails);
    const rows = await eventually(async () => {
      // The sender's address is read in JS: JSON functions differ between SQLite and PostgreSQL.
      const found = (await sql<{ subject: string; from_json: string }>('SELECT subject, from_json FROM messages')).filter((row) =>
        wanted.has((JSON.parse(row.from_json) as { email: string }[])[0]?.email ?? ''),
      );
      return found.length === set.length && found;
    }, 30_000, 'the torture set mirrored');
    const byEmail = new Map(rows.map((row) => { const from = (JSON.parse(row.from_json) as { name: string; email: string }[])[0]!; return [from.email, { subject: row.subject, name: from.name }]; }));
    const wrong = set
      .filter((message) => byEmail.get(message.email)?.subject !== message.expectedSubject || byEmail.get(message.email)?.name !== message.expectedName)
      .map((message) => `${message.index} ${message.label}: ${JSON.stringify(byEmail.get(message.email))}`);
    expect(wrong).toEqual([]);
    expect(rows.filter((row) => /\ufffd|ï¿½|Ã/.test(row.subject + row.from_json))).toEqual([]);
  });
});

describe('a U+0000 in a decoded subject and body (an encoded word =00, quoted-printable =00)', () => {
  test('the message is mirrored and read like any other, the NUL dropped (PostgreSQL TEXT cannot hold one)', async () => {
    const subject = `Nul=00byte ${Date.now()}`;
    const source = [
      'From: Ann <ann@kite.test>', 'To: Alice Tern <alice@tern.test>', `Subject: =?utf-8?q?${subject.replace(/ /g, '_')}?=`, 'Message-ID: <nul-byte@kite.test>', 'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '', 'before=00after', '',
    ].join('\r\n');
    await fx.send({ envelope: { from: 'ann@kite.test', to: ['alice@tern.test'] }, raw: source });
    const expected = subject.replace('=00', '');
    const row = await eventually(
      async () => (await sql<{ id: number; subject: string; snippet: string }>('SELECT id, subject, snippet FROM messages WHERE message_id_header = ?', '<nul-byte@kite.test>'))[0],
      15_000,
      'the message mirrored',
    );
    expect(row).toMatchObject({ subject: expected, snippet: 'beforeafter' });
    // The body comes from IMAP as it is (its cache row is JSON, where a NUL is escaped); only the columns drop it.
    const reply = await api(`/api/messages/${row.id}/body`);
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as MessageBody).text?.trim().replace('\u0000', '')).toBe('beforeafter');
  });
});

describe('headers longer than a PostgreSQL index entry (2,704 bytes)', () => {
  test('a 4,000-character Message-ID and subject: the message is mirrored, and a reply to it joins its thread', async () => {
    const words = (count: number) => Array.from({ length: count }, () => randomBytes(8).toString('hex')).join(' ');
    const subject = `Long ${words(240)}`;
    const messageId = `<${randomBytes(2000).toString('hex')}@kite.test>`;
    const fold = (text: string) => text.replace(/(.{60,70}) /g, '$1\r\n ');
    const original = ['From: Ann <ann@kite.test>', 'To: Alice Tern <alice@tern.test>', `Subject: ${fold(subject)}`, `Message-ID: ${messageId}`, '', 'Long headers.', ''].join('\r\n');
    const reply = ['From: Alice Tern <alice@tern.test>', 'To: Ann <ann@kite.test>', `Subject: ${fold(`Re: ${subject}`)}`, '<long-reply@tern.test>'.replace(/^/, 'Message-ID: '), `In-Reply-To: ${messageId}`, '', 'Noted.', ''].join('\r\n');
    await appendMessages(fx, 'INBOX', [original, reply]);
    const rows = await eventually(async () => {
      const found = await sql<{ subject: string; messageIdHeader: string; threadId: number }>(
        'SELECT subject, message_id_header AS "messageIdHeader", thread_id AS "threadId" FROM messages WHERE subject IN (?, ?)', subject, `Re: ${subject}`);
      return found.length === 2 && found;
    }, 15_000, 'both messages mirrored');
    // The id is kept cut to 600 characters (the same cut wherever an id is read), so the reply still finds it.
    const [first, second] = [rows.find((row) => row.subject === subject)!, rows.find((row) => row.subject !== subject)!];
    expect(first.messageIdHeader).toBe(`${messageId.slice(0, 599)}>`);
    expect(second.threadId).toBe(first.threadId);
  });
});

describe('timings (figures, not assertions)', () => {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const timed = async (path: string) => {
    const started = performance.now();
    const reply = await api(path);
    await reply.arrayBuffer();
    expect(reply.status).toBe(200);
    return performance.now() - started;
  };

  test('thread page, body uncached and cached, over loopback HTTP', async () => {
    const inbox = (await folderAt('INBOX'))!;
    const pages: number[] = [];
    for (let i = 0; i < 20; i++) pages.push(await timed(`/api/threads?folderId=${inbox.id}&limit=50`));
    const ids = (await sql<{ id: number }>(`SELECT m.id FROM messages m LEFT JOIN message_bodies b ON b.message_id = m.id WHERE b.message_id IS NULL ORDER BY m.id LIMIT 20`)).map((row) => row.id);
    const uncached: number[] = [];
    const cached: number[] = [];
    for (const id of ids) uncached.push(await timed(`/api/messages/${id}/body`));
    for (const id of ids) cached.push(await timed(`/api/messages/${id}/body`));
    console.log(
      `[reading] median of ${pages.length}: thread page of 50 ${median(pages).toFixed(1)} ms; ` +
        `median of ${ids.length}: body uncached ${median(uncached).toFixed(1)} ms (max ${Math.max(...uncached).toFixed(1)}), cached ${median(cached).toFixed(1)} ms`,
    );
  });
});

/** One GET as the wire carries it: the body is not decoded (fetch would decode it and hide the encoding). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${fx.baseUrl}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

describe('bytes on the wire (issue 13 point 1)', () => {
  const auth = () => ({ authorization: `Bearer ${fx.token}` });

  test('a built asset goes out precompressed by Accept-Encoding, immutable, with Vary; without the header as it is', async () => {
    // What build.mjs writes: a content-hashed script with its brotli and gzip copies beside it.
    const script = Buffer.from(Array.from({ length: 400 }, (_, i) => `export const value${i} = "row ${i}";\n`).join(''));
    const build = join(fx.ctx.config.publicDir, 'build');
    await mkdir(build, { recursive: true });
    await writeFile(join(build, 'probe-ABCD1234.js'), script);
    await writeFile(join(build, 'probe-ABCD1234.js.br'), brotliCompressSync(script));
    await writeFile(join(build, 'probe-ABCD1234.js.gz'), gzipSync(script));
    const url = '/build/probe-ABCD1234.js';

    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br.body).equals(script)).toBe(true);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(script)).toBe(true);

    const plain = await rawGet(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(script)).toBe(true);
    // A refused coding is never sent.
    expect((await rawGet(url, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
  });

  test('API JSON over 1 KB is compressed and decodes to the same JSON; small replies and clients that ask for nothing get identity', async () => {
    const inbox = (await folders()).find((folder) => folder.path === 'INBOX')!;
    const path = `/api/threads?folderId=${inbox.id}&limit=50`;
    const plain = await rawGet(path, auth());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(4096);
    const json = JSON.parse(plain.body.toString('utf8')) as unknown;

    const br = await rawGet(path, { ...auth(), 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(json);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);

    // Node's fetch (the engine in tests) asks for gzip on plain HTTP, and decodes it itself.
    const gz = await rawGet(path, { ...auth(), 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).toEqual(json);
    expect(await (await api(path)).json()).toEqual(json);

    const small = await rawGet('/api/health', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toMatchObject({ ok: true });
  });

  test('a JSON attachment asked for with Range and Accept-Encoding comes back as its own bytes, never re-encoded', async () => {
    // JSON is the one type the gateway compresses, so a .json file is the download it could get wrong.
    const data = Buffer.from(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ row: i, note: `figure ${i}` }))));
    const boundary = 'b-json-attachment';
    const source = [
      'From: Ann <ann@kite.test>', 'To: Alice Tern <alice@tern.test>', 'Subject: Figures as JSON', 'Message-ID: <json-attachment@kite.test>',
      'MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${boundary}"`, '',
      `--${boundary}`, 'Content-Type: text/plain', '', 'The figures.', '',
      `--${boundary}`, 'Content-Type: application/json', 'Content-Disposition: attachment; filename="figures.json"', 'Content-Transfer-Encoding: base64', '',
      data.toString('base64').replace(/.{76}/g, '$&\r\n'), `--${boundary}--`, '',
    ].join('\r\n');
    await appendMessages(fx, 'INBOX', [source]);
    const row = await eventually(async () => (await sql<{ id: number }>(`SELECT id FROM messages WHERE subject = 'Figures as JSON'`))[0], 15_000, 'the message mirrored');
    const opened = await (await api(`/api/messages/${row.id}/body`)).json() as MessageBody;
    const file = opened.attachments.find((attachment) => attachment.filename === 'figures.json')!;
    const reply = await rawGet(`/api/messages/${row.id}/attachments/${file.index}`, { ...auth(), 'accept-encoding': 'br, gzip', range: 'bytes=0-99' });
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['content-disposition']).toMatch(/^attachment;/);
    expect(reply.headers['content-encoding']).toBeUndefined();
    // The gateway ignores Range on downloads (RFC 9110 allows it): the whole file, byte for byte.
    expect(reply.status).toBe(200);
    expect(reply.body.equals(data)).toBe(true);
  });
});
