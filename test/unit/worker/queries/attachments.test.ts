import { expose, wrap } from 'comlink';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { registerErrorTransfer } from '../../../../shared/error-transfer';
import type { MailQueryService } from '../../../../shared/worker-mail-api';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

beforeAll(() => registerErrorTransfer());
const engines: { close(): void }[] = [];
const channels: MessageChannel[] = [];
afterEach(() => {
  engines.splice(0).forEach((engine) => engine.close());
  channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close()));
});

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const KB = 1024;

async function synced(server: FakeMailServer) {
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine();
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the sync');
  return { engine, runtime };
}

/** The engine's queries as a tab reaches them: over a real MessageChannel. */
function tabOf(queries: MailQueryService) {
  const channel = new MessageChannel();
  channels.push(channel);
  expose(queries, channel.port1);
  return wrap<MailQueryService>(channel.port2);
}

describe('attachments', () => {
  test('getAttachment fetches the bytes with the account token and hands the tab a Blob', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const message = server.deliver({ subject: 'Report', at: T0, attachments: [{ filename: 'report.pdf', size: 300 * KB, contentType: 'application/pdf', contentId: null }] });
    const bytes = new Uint8Array(300 * KB).map((_, i) => (i * 31) % 256);
    server.files.set(`${message.id}/0`, { bytes, contentType: 'application/pdf' });
    const { engine } = await synced(server);
    const tab = tabOf(engine.queries);

    const blob = await tab.getAttachment({ accountId: '7', messageId: message.id, index: 0 });
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe('application/pdf');
    expect(Buffer.from(await blob.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    const [request] = server.requestsTo(`/api/messages/${message.id}/attachments/0`);
    expect(request?.headers.get('authorization')).toBe('Bearer token-7');

    await expect(tab.getAttachment({ accountId: '7', messageId: message.id, index: 3 })).rejects.toMatchObject({ name: 'FileNotFound' });
    await expect(tab.getAttachment({ accountId: '7', messageId: message.id, index: -1 })).rejects.toMatchObject({ name: 'InvalidRequestData' });
    await expect(tab.getAttachment({ accountId: '99', messageId: message.id, index: 0 })).rejects.toMatchObject({ name: 'AccountNotFound' });
  });

  test('the paperclip (spec §5): an attachment without contentId or over 12 KB, whatever the gateway flags', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const logo = { filename: 'logo.png', size: 2 * KB, contentType: 'image/png', contentId: '<logo@x>' };
    const photo = { filename: 'photo.jpg', size: 20 * KB, contentType: 'image/jpeg', contentId: '<photo@x>' };
    const pdf = { filename: 'tiny.pdf', size: KB, contentType: 'application/pdf', contentId: null };
    const signature = server.deliver({ subject: 'Signature logo only', at: T0, attachments: [logo] });
    server.deliver({ subject: 'Big inline photo', at: T0 + HOUR, attachments: [photo] });
    server.deliver({ subject: 'Small file', at: T0 + 2 * HOUR, attachments: [pdf] });
    server.deliver({ subject: 'Nothing attached', at: T0 + 3 * HOUR });
    server.deliver({ subject: 'Newsletter', at: T0 + 3.5 * HOUR, attachments: [logo, { ...logo, contentId: '<icon@x>' }] });
    const reply = server.deliver({ subject: 'Re: Signature logo only', at: T0 + 4 * HOUR, threadId: signature.threadId, attachments: [logo, pdf] });
    const { engine, runtime } = await synced(server);
    expect(server.thread(signature.threadId)?.hasAttachments).toBe(true); // what the gateway says

    const paperclips = async () => {
      const snapshot = await engine.queries.watchThreadList({ scope: { kind: 'folder', accountId: '7', folderId: server.folderOf('inbox').id }, window: { offset: 0, limit: 10 } }, () => {});
      await engine.queries.unwatch({ subscriptionId: snapshot.subscriptionId });
      return Object.fromEntries(snapshot.rows.map((row) => [row.subject, row.hasAttachments]));
    };
    expect(await paperclips()).toEqual({ 'Signature logo only': true, 'Big inline photo': true, 'Small file': true, 'Nothing attached': false, Newsletter: false });

    // The reply with the real file goes: only the logo is left, and the paperclip with it.
    server.change([reply.id], () => null);
    runtime.sync.announce(server.latest);
    await waitFor(() => runtime.sync.state.appliedTransactionId === server.latest && runtime.sync.state.phase === 'idle', 'the delete');
    expect((await paperclips())['Signature logo only']).toBe(false);
    expect((await engine.queries.getThread({ accountId: '7', threadId: signature.threadId })).row.hasAttachments).toBe(false);
  });
});
