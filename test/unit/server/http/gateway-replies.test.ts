import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './gateway-app-fixture';

let gateway: TestApp;
let headers: { authorization: string };
beforeAll(async () => {
  gateway = await startTestApp();
  const login = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'alice@tern.test', password: 'Alice-pass-1!' } });
  headers = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
});
afterAll(async () => gateway.close());

/** A multipart body with one file of `size` bytes. */
function multipart(filename: string, size: number) {
  const boundary = 'tern-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: video/quicktime\r\n\r\n`),
    Buffer.alloc(size, 65),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('replies that carry tokens are never cached', () => {
  test('login (accepted or refused) and session answer Cache-Control: no-store', async () => {
    const accepted = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'alice@tern.test', password: 'Alice-pass-1!' } });
    const refused = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'alice@tern.test', password: 'Wrong-pass-1!' } });
    const session = await gateway.app.inject({ url: '/api/session', headers });
    expect([accepted.statusCode, refused.statusCode, session.statusCode]).toEqual([200, 401, 200]);
    for (const response of [accepted, refused, session]) expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('downloads', () => {
  test('without a token an attachment or the original is 401 UNAUTHENTICATED (not 400, 404 or 500)', async () => {
    for (const url of ['/api/messages/1/attachments/0', '/api/messages/1/original']) {
      const response = await gateway.app.inject({ url });
      expect([url, response.statusCode, (response.json() as { error: string }).error]).toEqual([url, 401, 'UNAUTHENTICATED']);
    }
  });

  test('a wrong token stays InvalidToken 401', async () => {
    const response = await gateway.app.inject({ url: '/api/messages/1/attachments/0', headers: { authorization: 'Bearer not-a-session' } });
    expect([response.statusCode, (response.json() as { error: string }).error]).toEqual([401, 'InvalidToken']);
  });
});

describe('folder names', () => {
  test('a lone surrogate in a new folder’s name is a 400 InvalidParameter', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/api/folders', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"name":"Tax \\uD800"}' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'InvalidParameter', detail: { field: 'name', reason: 'lone surrogate' } });
  });
});

describe('"too large" says what was too large', () => {
  test('a body over the route’s limit names its size and the limit', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/api/folders', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }) });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { error: string; description: string; detail: { sizeBytes: number; limitBytes: number } };
    expect(body.error).toBe('MessageSizeExceeded');
    expect(body.detail).toMatchObject({ what: 'request body', limitBytes: 1024 * 1024 });
    expect(body.detail.sizeBytes).toBeGreaterThan(3 * 1024 * 1024);
    expect(body.description).toBe('The message is too large to send: 3.0 MB, at most 1.0 MB.');
  });

  test('an attachment over 25 MB names the file, about how large it is and the limit', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/api/files', ...multipart('holiday.mov', 26 * 1024 * 1024) });
    expect(response.statusCode).toBe(403);
    const body = response.json() as { error: string; description: string; detail: Record<string, unknown> };
    expect(body.error).toBe('InvalidFileSize');
    expect(body.description).toBe('“holiday.mov” is too large to attach (about 26.0 MB); a file can be at most 25.0 MB.');
    expect(body.detail).toMatchObject({ filename: 'holiday.mov', limitBytes: 25 * 1024 * 1024 });
  });

  test('a refused file closes the connection (the rest of the body is unread); a request without files does not', async () => {
    const refused = await gateway.app.inject({ method: 'POST', url: '/api/files', ...multipart('setup.exe', 10) });
    expect([refused.statusCode, (refused.json() as { error: string }).error, refused.headers.connection]).toEqual([400, 'FileExtensionNotAllowed', 'close']);
    const boundary = 'tern-test-boundary';
    const none = await gateway.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
    });
    expect([none.statusCode, (none.json() as { error: string }).error, none.headers.connection]).toEqual([400, 'InvalidParameter', 'keep-alive']);
  });

  test('an empty attachment is named', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/api/files', ...multipart('notes.txt', 0) });
    expect(response.json()).toMatchObject({ error: 'InvalidFileSize', description: '“notes.txt” is empty.', detail: { filename: 'notes.txt', reason: 'empty' } });
  });
});
