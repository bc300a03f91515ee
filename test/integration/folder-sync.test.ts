// One folder's backfill step by step against real Dovecot (and Cyrus), with another client changing the
// folder between steps: the steps that keep the selection (no new SELECT) must still end with
// exactly what the server holds — removals, new mail and flag changes included.
import type { ImapFlow } from 'imapflow';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createImapClient } from '../../src-server/imap/imap-client';
import { LeanFetch } from '../../src-server/imap/lean-fetch';
import { syncFolder } from '../../src-server/mirror/folder-sync';
import { MirrorStore } from '../../src-server/mirror/mirror-store';
import { VanishedLog } from '../../src-server/mirror/vanished-log';
import { PushHub } from '../../src-server/push/push-hub';
import type { SqlStore } from '../../src-server/store/sql';
import { TransactionLog } from '../../src-server/store/transaction-log';
import { startMailServers, type MailServers } from '../harness/mail-servers';
import { seedHarnessMailbox } from '../harness/seed/seed-harness';
import { openTestStore } from './support/database-choice';
import { imapServerUnderTest } from './support/imap-server-choice';

const OWNER = { name: 'Fay Folder', email: 'fay@tern.test' };
const PASSWORD = 'Fay-pass-1!';

describe('a folder backfilled page by page while another client changes it', () => {
  let root: string;
  let servers: MailServers;
  let sql: SqlStore;
  let client: ImapFlow;
  let other: ImapFlow;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'tern-folder-sync-'));
    await chmod(root, 0o711);
    servers = await startMailServers({ dataDir: path.join(root, 'mail'), users: [{ email: OWNER.email, password: PASSWORD }], fresh: true, imapServer: imapServerUnderTest() });
    await seedHarnessMailbox(servers, { email: OWNER.email, password: PASSWORD }, { owner: OWNER, count: 400 });
    sql = await openTestStore(root, 'folder_sync');
    const server = { host: servers.host, port: servers.ports.imap, security: 'none' as const };
    client = createImapClient({ account: { email: OWNER.email, imap: server }, password: PASSWORD, purpose: 'sync' });
    await client.connect();
    other = createImapClient({ account: { email: OWNER.email, imap: server }, password: PASSWORD, purpose: 'sync' });
    await other.connect();
  });

  afterAll(async () => {
    await other?.logout().catch(() => undefined);
    await client?.logout().catch(() => undefined);
    await sql?.close();
    await servers?.stop();
    await rm(root, { recursive: true, force: true });
  });

  test('steps after the first keep the selection, and the mirror ends equal to the server', async () => {
    const { id: accountId } = (await sql.get<{ id: number }>(
      `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
       VALUES (?, 'Fay', 'h', 143, 'none', 'h', 25, 'none', ?, 0) RETURNING id`,
      [OWNER.email, Buffer.alloc(0)],
    ))!;
    const store = new MirrorStore({ store: sql, txlog: new TransactionLog(sql), push: new PushHub() });
    const vanished = new VanishedLog();
    client.on('expunge', (event) => vanished.record(event));
    const [inbox] = await store.syncFolderList(accountId, [{ path: 'INBOX', name: 'INBOX', parentPath: null, delimiter: '/', specialUse: 'inbox' }]);
    let selects = 0;
    const select = client.mailboxOpen.bind(client);
    client.mailboxOpen = (...args: Parameters<ImapFlow['mailboxOpen']>) => {
      selects++;
      return select(...args);
    };
    const inactive: Error[] = [];
    const leanFetch = new LeanFetch({ onInactive: (error) => inactive.push(error) });
    const step = async () => syncFolder({ client, store, accountId, folder: (await store.folder(accountId, inbox!.id))!, pageSize: 25, vanished, leanFetch });

    expect((await step()).more).toBe(true);
    const mirroredFirst = await store.mirroredUids(inbox!.id);
    // Another mail program: flags a mirrored message, deletes a mirrored and a not yet mirrored one, and new mail arrives.
    await other.mailboxOpen('INBOX');
    const flagged = mirroredFirst.at(-1)!;
    const deletedMirrored = mirroredFirst[0]!;
    const deletedLater = mirroredFirst[0]! - 10;
    await other.messageFlagsAdd(String(flagged), ['\\Flagged'], { uid: true });
    await other.messageDelete(`${deletedMirrored},${deletedLater}`, { uid: true });
    await other.append('INBOX', 'From: x@example.org\r\nSubject: arrived during the backfill\r\nMessage-ID: <new@example.org>\r\n\r\nhello\r\n');

    let steps = 1;
    while ((await step()).more) steps++;
    expect(steps).toBeGreaterThan(2);
    // Only the first step selected: the backfill steps after it kept the selection.
    expect(selects).toBe(1);

    // The step after the backfill selects again and reads the flag changes since the stored HIGHESTMODSEQ.
    await step();
    const onServer = new Map<number, string[]>();
    for await (const message of other.fetch('1:*', { uid: true, flags: true }, { uid: true })) onServer.set(message.uid, [...(message.flags ?? [])].sort());
    expect(await store.mirroredUids(inbox!.id)).toEqual([...onServer.keys()].sort((a, b) => a - b));
    expect(onServer.has(deletedMirrored) || onServer.has(deletedLater)).toBe(false);
    const rows = await sql.all<{ uid: number; flags: string; subject: string }>('SELECT uid, flags, subject FROM messages WHERE folder_id = ?', [inbox!.id]);
    for (const row of rows) expect(JSON.parse(row.flags), `flags of UID ${row.uid}`).toEqual(onServer.get(row.uid)!.filter((flag) => flag !== '\\Recent'));
    expect(rows.find((row) => row.uid === flagged)?.flags).toContain('\\\\Flagged');
    expect(rows.some((row) => row.subject === 'arrived during the backfill')).toBe(true);
    // The metadata FETCH went through the fast path (imap/lean-fetch.ts), not imapflow's reader: fails if imapflow stops calling the method it stands in for.
    console.log(`[folder-sync] FETCH fast path: ${JSON.stringify(leanFetch.status)}`);
    expect(inactive).toEqual([]);
    expect(leanFetch.status.mode).toBe('active');
    expect(leanFetch.status.served).toBeGreaterThanOrEqual(rows.length);
    expect(leanFetch.status.passedOn).toBe(0);
  });
});
