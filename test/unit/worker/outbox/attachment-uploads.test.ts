import { afterEach, describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const MB = 1024 * 1024;
const UPLOAD_ID = 'b'.repeat(32);
const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

/**
 * One account whose gateway stores uploads. Node has no XMLHttpRequest, so uploads go
 * through fetch here (progress at the start and the end); `hold` keeps an upload open
 * until the test lets it go or its signal aborts it, as a browser's fetch does.
 */
async function setup(options: { hold?: boolean } = {}) {
  const server = new FakeMailServer();
  server.standardFolders();
  const profile = new Profile([server]);
  await profile.addAccounts();
  const uploads: { name: string; size: number }[] = [];
  let release: (() => void) | null = null;
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    if (new URL(String(input)).pathname !== '/api/files') return profile.fetch(input, init);
    const file = (init.body as FormData).get('file') as File;
    if (options.hold) {
      await new Promise<void>((resolve, reject) => {
        release = resolve;
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      });
    }
    uploads.push({ name: file.name, size: file.size });
    return Response.json({ files: [{ id: `${uploads.length}`.padStart(32, 'a'), filename: file.name, size: file.size, contentType: 'application/pdf' }] });
  };
  const engine = await profile.engine({ fetch });
  engines.push(engine);
  await waitFor(() => engine.runtime(server.accountId), 'the runtime');
  return { server, profile, engine, uploads, release: () => release?.(), inFlight: () => release !== null };
}

describe('attachment uploads', () => {
  test('the file reaches the gateway under its name; the tab hears 0 and 1 and gets the id', async () => {
    const { engine, uploads } = await setup();
    const heard: number[] = [];
    const result = await engine.commands.uploadAttachment({ accountId: '7', file: new Blob(['%PDF-1.4 report']), fileName: 'report.pdf', uploadId: UPLOAD_ID }, (share) => void heard.push(share));
    expect(result.attachmentId).toMatch(/^a+1$/);
    expect(uploads).toEqual([{ name: 'report.pdf', size: 15 }]);
    expect(heard).toEqual([0, 1]);
    // Finished uploads are forgotten: nothing is left to cancel.
    await expect(engine.commands.cancelUpload({ uploadId: UPLOAD_ID })).resolves.toBe(false);
  });

  test('an upload in flight can be cancelled by its id; it rejects and stores nothing', async () => {
    const { engine, uploads, inFlight } = await setup({ hold: true });
    const pending = engine.commands.uploadAttachment({ accountId: '7', file: new Blob(['x'.repeat(1000)]), fileName: 'big.bin', uploadId: UPLOAD_ID }, () => undefined);
    const outcome = pending.catch((error: unknown) => error);
    await waitFor(() => inFlight(), 'the upload reaching the gateway');
    await expect(engine.commands.cancelUpload({ uploadId: UPLOAD_ID })).resolves.toBe(true);
    const error = await outcome;
    expect(error).toBeInstanceOf(TernError);
    expect(error).toMatchObject({ name: 'OperationFailed', message: 'The upload was cancelled.', detail: { cancelled: true } });
    expect(uploads).toEqual([]);
    await expect(engine.commands.cancelUpload({ uploadId: UPLOAD_ID })).resolves.toBe(false);
  });

  test('a file over the size limit is refused with the catalogue error before a byte leaves', async () => {
    const { engine, server } = await setup();
    const huge = new Blob(['x']);
    Object.defineProperty(huge, 'size', { value: 26 * MB });
    await expect(engine.commands.uploadAttachment({ accountId: '7', file: huge, fileName: 'huge.mov' }, () => undefined)).rejects.toMatchObject({
      name: 'InvalidFileSize',
      message: 'This file is too large or empty.',
    });
    expect(server.requestsTo('/api/files')).toHaveLength(0);
  });
});

describe('the From of drafts', () => {
  const draft = { accountId: '7', to: [{ name: 'Bo', email: 'bo@example.com' }], cc: [], bcc: [], subject: 'Hello', html: '<p>Hi</p>', attachmentIds: [] };

  test('a draft goes to the gateway from the account, under the display name chosen in settings', async () => {
    const { engine, server, profile } = await setup();
    await profile.repository.update('7', (account) => ({ ...account, displayName: 'Ulla Ser' }));
    await engine.commands.saveDraft({ draft });
    await waitFor(() => server.requestsTo('/api/drafts').length === 1, 'the draft create');
    expect(server.requestsTo('/api/drafts')[0]!.body).toMatchObject({ from: { name: 'Ulla Ser', email: 'user7@example.com' }, subject: 'Hello' });
  });

  test('without a display name, the name the gateway gave at login', async () => {
    const { engine, server } = await setup();
    await engine.commands.saveDraft({ draft });
    await waitFor(() => server.requestsTo('/api/drafts').length === 1, 'the draft create');
    expect(server.requestsTo('/api/drafts')[0]!.body).toMatchObject({ from: { name: 'User', email: 'user7@example.com' } });
  });
});
