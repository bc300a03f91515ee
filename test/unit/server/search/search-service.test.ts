import type { ImapFlow, MailboxObject, SearchObject } from 'imapflow';
import { describe, expect, test } from 'vitest';
import type { MirrorManager } from '../../../../src-server/mirror/mirror-manager';
import { SearchService } from '../../../../src-server/search/search-service';
import { days } from '../mirror/mirror-fixture';
import { readingFixture } from '../reading/reading-fixture';

interface FakeServer {
  /** UIDs SEARCH answers per folder path. */
  hits: Record<string, number[]>;
  /** Message-ID of UIDs the mirror does not hold. */
  envelopes: Record<number, string>;
  /** Held until released, to play a slow server. */
  gate?: Promise<void>;
}

async function setup(server: FakeServer) {
  const fx = await readingFixture();
  // Every folder fully mirrored unless a test says otherwise.
  await fx.sql.run('UPDATE folders SET backfilled_to = 0');
  const asked: { path: string; query: SearchObject }[] = [];
  const mirror = {
    progress: { firstInboxPageMs: 1, fullyMirroredMs: null as number | null },
    async withMailbox<T>(path: string, fn: (client: ImapFlow, mailbox: MailboxObject) => Promise<T>) {
      await server.gate;
      const client = {
        async search(query: SearchObject) {
          asked.push({ path, query });
          return server.hits[path] ?? [];
        },
        async *fetch(range: string) {
          for (const uid of range.split(',').map(Number)) yield { uid, envelope: { messageId: server.envelopes[uid] } };
        },
      };
      return fn(client as unknown as ImapFlow, { path, uidValidity: 1n } as unknown as MailboxObject);
    },
  };
  const service = new SearchService({
    store: fx.sql,
    folders: fx.folders,
    threads: fx.threads,
    mirrors: { get: () => mirror } as unknown as MirrorManager,
    serverTimeoutMs: 200,
  });
  const search = (q: string) => service.search({ accountId: fx.accountId, q, folderId: null, limit: 100 });
  const setBackfill = (path: string, value: number | null) => fx.sql.run('UPDATE folders SET backfilled_to = ? WHERE id = ?', [value, fx.folder(path)]);
  return { ...fx, search, asked, setBackfill, mirror };
}

describe('search with the server', () => {
  test('a complete mirror with local answers never asks the server', async () => {
    const fx = await setup({ hits: {}, envelopes: {} });
    const id = await fx.add('INBOX', { subject: 'budget' });
    const result = await fx.search('budget');
    expect(result.threads.map((thread) => thread.messageIds)).toEqual([[String(id)]]);
    expect(result).toMatchObject({ matchedMessages: 1, truncated: false, complete: true, pendingOnServer: 0 });
    expect(fx.asked).toEqual([]);
  });

  test('a folder mid-backfill is searched below its mirrored UIDs; hits map by UID, by Message-ID, or count as pending', async () => {
    const fx = await setup({ hits: { INBOX: [1, 2, 3] }, envelopes: { 1: '<copy@x>', 2: '<unknown@x>' } });
    const mirrored = await fx.add('INBOX', { subject: 'older news', messageIdHeader: '<m3@x>', date: days(1) }); // uid 1
    const archived = await fx.add('Projects', { subject: 'older news', messageIdHeader: '<copy@x>', date: days(2) }); // uid 2, in another folder
    // The mirror holds INBOX UID 3 only; UIDs 1 and 2 of INBOX are below its backfill.
    await fx.sql.run('UPDATE messages SET uid = 3 WHERE id = ?', [mirrored]);
    await fx.setBackfill('INBOX', 3);
    const result = await fx.search('is:unread older');
    expect(fx.asked).toEqual([{ path: 'INBOX', query: { seen: false, text: 'older', uid: '1:2' } }]);
    const found = result.threads.flatMap((thread) => thread.messageIds);
    expect(found).toEqual(expect.arrayContaining([String(mirrored), String(archived)]));
    expect(result.pendingOnServer).toBe(1);
    expect(result.complete).toBe(true);
  });

  test('when nothing matches locally, the words are looked for on the server in every folder in scope (bodies)', async () => {
    const fx = await setup({ hits: { Sent: [1] }, envelopes: {} });
    const id = await fx.add('Sent', { subject: 'plain' }); // uid 1
    const result = await fx.search('zanzibar');
    expect(fx.asked.map((entry) => entry.path).sort()).toEqual(['INBOX', 'Projects', 'Projects/2026', 'Sent']); // Trash left out
    expect(fx.asked.every((entry) => entry.query.uid === undefined)).toBe(true);
    expect(result.threads.flatMap((thread) => thread.messageIds)).toEqual([String(id)]);
  });

  test('a server that does not answer in time leaves the result incomplete, not failed', async () => {
    let release!: () => void;
    const fx = await setup({ hits: { INBOX: [] }, envelopes: {}, gate: new Promise<void>((resolve) => (release = resolve)) });
    await fx.add('INBOX', { subject: 'local' });
    await fx.setBackfill('INBOX', null);
    const result = await fx.search('local');
    expect(result).toMatchObject({ matchedMessages: 1, complete: false });
    release();
  });

  test('a newer search drops an older one still waiting for the connection', async () => {
    let release!: () => void;
    const fx = await setup({ hits: {}, envelopes: {}, gate: new Promise<void>((resolve) => (release = resolve)) });
    await fx.setBackfill('INBOX', null);
    await fx.setBackfill('Sent', null);
    const first = fx.search('alpha');
    const second = fx.search('alphabet');
    release();
    const [older, newer] = await Promise.all([first, second]);
    expect(older.complete).toBe(false);
    expect(newer.complete).toBe(true);
    expect(fx.asked.every((entry) => entry.query.text === 'alphabet')).toBe(true);
  });

  test('once the mirror has been through every folder, a folder never synced (\\Noselect) is not asked', async () => {
    const fx = await setup({ hits: {}, envelopes: {} });
    await fx.add('INBOX', { subject: 'x' });
    await fx.sql.run('UPDATE folders SET uidvalidity = NULL, backfilled_to = NULL WHERE id = ?', [fx.folder('Projects')]);
    await fx.search('x');
    expect(fx.asked.map((entry) => entry.path)).toEqual(['Projects']);
    fx.asked.length = 0;
    fx.mirror.progress.fullyMirroredMs = 1234;
    await fx.search('x');
    expect(fx.asked).toEqual([]);
  });

  test('in: naming no folder, or a query of punctuation, finds nothing without an error', async () => {
    const fx = await setup({ hits: {}, envelopes: {} });
    await fx.add('INBOX', { subject: 'x' });
    expect((await fx.search('in:nowhere x')).threads).toEqual([]);
    expect((await fx.search('!!!')).threads).toEqual([]);
    expect(fx.asked).toEqual([]);
  });
});
