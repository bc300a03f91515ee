import { expose, wrap } from 'comlink';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { showsPaperclip } from '../../../../shared/attachment-rules';
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

  test('getBody embeds every cid: image the HTML names, a 300-byte logo as well as a 5 KB banner, matched loosely', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const logo = { filename: 'logo.png', size: 300, contentType: 'image/png', contentId: '<Logo@X>' };
    const banner = { filename: 'banner.png', size: 5 * KB, contentType: 'image/png', contentId: 'banner@x' };
    const unreferenced = { filename: 'photo.png', size: 300, contentType: 'image/png', contentId: '<photo@x>' };
    const message = server.deliver({ subject: 'Newsletter', at: T0, attachments: [logo, banner, unreferenced] });
    const parts = [logo, banner, unreferenced].map((part, index) => ({ ...part, index }));
    parts.forEach((part, index) => server.files.set(`${message.id}/${index}`, { bytes: new Uint8Array(part.size).fill(index + 1), contentType: 'image/png' }));
    const html = '<img src="cid:logo@x" alt="Logo"><img src="cid:%3CBANNER@x%3E"><img src="cid:gone@x" alt="Gone">';
    server.handlers.push(({ path }) =>
      path === `/api/messages/${message.id}/body` ? Response.json({ messageId: message.id, html, text: null, attachments: parts, headers: {} }) : undefined,
    );
    const { engine } = await synced(server);
    const tab = tabOf(engine.queries);

    const body = await tab.getBody({ accountId: '7', messageId: message.id });
    expect(Object.keys(body.inlineImages).sort()).toEqual(['banner@x', 'logo@x']);
    expect(atob(body.inlineImages['logo@x']!.replace(/^data:image\/png;base64,/, ''))).toHaveLength(300);
    expect(server.requestsTo(`/api/messages/${message.id}/attachments/2`)).toHaveLength(0); // not named by the HTML
    // The list under the message is the spec's: none of these small inline parts.
    expect(body.attachments.filter(showsPaperclip)).toEqual([]);
  });
});

describe('previews and very large bodies (issue points 12 and 14)', () => {
  test('previewAttachment asks the gateway for a link with the account token and hands the tab its absolute address', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const message = server.deliver({ subject: 'Logo', at: T0, attachments: [{ filename: 'logo.svg', size: 2 * KB, contentType: 'image/svg+xml', contentId: null }] });
    const { engine } = await synced(server);
    const tab = tabOf(engine.queries);

    const link = await tab.previewAttachment({ accountId: '7', messageId: message.id, index: 0 });
    expect(link.url).toMatch(new RegExp(`^https?://[^/]+/api/attachment-preview/${message.id}\\.0\\.signed$`));
    expect(link.expiresAt).toBeGreaterThan(Date.now());
    const [request] = server.requestsTo(`/api/messages/${message.id}/attachments/0/preview-link`);
    expect(request?.headers.get('authorization')).toBe('Bearer token-7');
    await expect(tab.previewAttachment({ accountId: '7', messageId: message.id, index: -1 })).rejects.toMatchObject({ name: 'InvalidRequestData' });
  });

  test('a very large body is kept as its first part; getBody with whole brings all of it without replacing the kept part', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const message = server.deliver({ subject: 'Archive', at: T0 + HOUR });
    const html = `<p>Start</p>${'<p>row</p>'.repeat(100)}<p>End</p>`;
    server.largeBodies.set(message.id, html);
    const { engine } = await synced(server);
    const tab = tabOf(engine.queries);

    const first = await tab.getBody({ accountId: '7', messageId: message.id });
    expect(first.html).toBe(html.slice(0, 20));
    expect(first.truncated).toEqual({ htmlBytes: html.length });
    const whole = await tab.getBody({ accountId: '7', messageId: message.id, whole: true });
    expect(whole.html).toBe(html);
    expect(whole.truncated).toBeUndefined();
    expect(server.requestsTo(`/api/messages/${message.id}/body`)).toHaveLength(2);
    // Opened again: the kept first part, at once, with no request.
    expect(await tab.getBody({ accountId: '7', messageId: message.id })).toEqual(first);
    expect(server.requestsTo(`/api/messages/${message.id}/body`)).toHaveLength(2);
  });
});
