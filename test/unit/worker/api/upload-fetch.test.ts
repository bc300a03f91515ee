import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { GatewayClient } from '../../../../src-worker/api/gateway-client';
import { MailGateway } from '../../../../src-worker/api/mail-gateway';
import { createRequestIds } from '../../../../src-worker/api/request-id';
import { fetchUploadFetch, xhrUploadFetch, type XhrLike } from '../../../../src-worker/api/upload-fetch';
import { manualClock } from '../mail-test-kit';

/**
 * An XMLHttpRequest as the browser runs one: `send` starts it, and the test moves its upload
 * along (`progress`) and ends it (`answer`, `networkError`). `abort` behaves as the real one.
 */
class FakeXhr implements XhrLike {
  static made: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  sent = false;
  aborted = false;
  responseType: XMLHttpRequestResponseType = '';
  response: unknown = null;
  status = 0;
  statusText = '';
  responseHeaderText = '';
  readonly upload: XhrLike['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.made.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getAllResponseHeaders() {
    return this.responseHeaderText;
  }
  send(body?: XMLHttpRequestBodyInit | null) {
    this.body = body;
    this.sent = true;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  answer(status: number, json: unknown) {
    this.status = status;
    this.response = new Blob([JSON.stringify(json)], { type: 'application/json' });
    this.responseHeaderText = 'content-type: application/json\r\nx-request-id: w_1\r\n';
    this.onload?.();
  }
  networkError() {
    this.onerror?.();
  }
}

const uploadFetch = () => {
  FakeXhr.made = [];
  return xhrUploadFetch(() => new FakeXhr());
};
const lastXhr = () => FakeXhr.made.at(-1)!;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('xhrUploadFetch', () => {
  test('sends method, headers and body; reports progress; answers with a Response', async () => {
    const seen: [number, number][] = [];
    const body = new FormData();
    body.append('file', new Blob(['hello']), 'a.txt');
    const pending = uploadFetch()('https://gw.test/api/files', { method: 'POST', headers: { authorization: 'Bearer t' }, body }, (loaded, total) => seen.push([loaded, total]));
    const xhr = lastXhr();
    expect(xhr).toMatchObject({ method: 'POST', url: 'https://gw.test/api/files', headers: { authorization: 'Bearer t' }, body, sent: true });
    xhr.progress(100, 400);
    xhr.upload.onprogress?.({ loaded: 5, total: 0, lengthComputable: false });
    xhr.progress(400, 400);
    xhr.answer(200, { files: [] });
    const response = await pending;
    expect(seen).toEqual([
      [100, 400],
      [400, 400],
    ]);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('w_1');
    await expect(response.json()).resolves.toEqual({ files: [] });
  });

  test('no answer at all is a TypeError, as with fetch; an abort is the signal’s reason', async () => {
    const network = uploadFetch()('https://gw.test/api/files', { method: 'POST', body: 'x' }, () => undefined);
    lastXhr().networkError();
    await expect(network).rejects.toBeInstanceOf(TypeError);

    const controller = new AbortController();
    const aborted = uploadFetch()('https://gw.test/api/files', { method: 'POST', body: 'x', signal: controller.signal }, () => undefined);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(lastXhr().aborted).toBe(true);
  });

  test('plain fetch where there is no XMLHttpRequest: all at once, at the end', async () => {
    const seen: number[] = [];
    const response = await fetchUploadFetch(async () => new Response('{}'))('https://gw.test/api/files', { method: 'POST' }, (loaded, total) => seen.push(loaded / total));
    expect(response.status).toBe(200);
    expect(seen).toEqual([1]);
  });
});

describe('MailGateway.upload through the GatewayClient', () => {
  const reply = { files: [{ id: 'a'.repeat(32), filename: 'a.txt', size: 5, contentType: 'text/plain' }] };

  function gateway(clock = manualClock(0)) {
    const fetched: string[] = [];
    const client = new GatewayClient({
      fetch: (async (input: RequestInfo | URL) => {
        fetched.push(String(input));
        return Response.json({});
      }) as typeof fetch,
      uploadFetch: uploadFetch(),
      session: () => ({ api: 'https://gw.test/api', token: 'secret' }),
      requestId: createRequestIds({ installationId: 'abc' }),
      clock,
    });
    return { mail: new MailGateway(client), client, fetched, clock };
  }

  test('the share sent reaches onProgress; the reply is parsed; other requests still use fetch', async () => {
    const { mail, client, fetched } = gateway();
    const shares: number[] = [];
    const pending = mail.upload({ file: new Blob(['hello']), fileName: 'a.txt', onProgress: (share) => shares.push(share) });
    await tick();
    const xhr = lastXhr();
    expect(xhr.headers).toMatchObject({ authorization: 'Bearer secret' });
    expect(xhr.headers['x-request-id']).toContain('FU');
    xhr.progress(1, 4);
    xhr.progress(4, 4);
    xhr.answer(200, reply);
    await expect(pending).resolves.toEqual(reply);
    expect(shares).toEqual([0.25, 1]);
    await client.json({ type: 'delta', path: '/delta' }, z.object({}));
    expect(fetched).toEqual(['https://gw.test/api/delta']);
  });

  test('a refusal is the catalogue error; nothing is retried', async () => {
    const { mail } = gateway();
    const pending = mail.upload({ file: new Blob(['x']), fileName: 'setup.exe' });
    await tick();
    lastXhr().answer(400, { error: 'FileExtensionNotAllowed', description: 'Files of this type cannot be attached.' });
    await expect(pending).rejects.toMatchObject({ name: 'FileExtensionNotAllowed', message: 'Files of this type cannot be attached.' });
    expect(FakeXhr.made).toHaveLength(1);
  });

  test('the timeout counts silence: an upload that keeps moving is not cut, a stalled one is', async () => {
    const { mail, clock } = gateway();
    const pending = mail.upload({ file: new Blob(['x']), fileName: 'big.bin' });
    const outcome = pending.then(
      () => 'done',
      (error: { name?: string }) => error.name,
    );
    await tick();
    const xhr = lastXhr();
    for (let step = 1; step <= 5; step++) {
      clock.advance(100_000);
      xhr.progress(step, 10);
    }
    expect(xhr.aborted).toBe(false);
    clock.advance(120_000);
    expect(xhr.aborted).toBe(true);
    await expect(outcome).resolves.toBe('RequestTimeout');
  });

  test('a cancelled upload stops the request', async () => {
    const { mail } = gateway();
    const controller = new AbortController();
    const pending = mail.upload({ file: new Blob(['x']), fileName: 'a.txt', signal: controller.signal });
    await tick();
    controller.abort();
    await expect(pending).rejects.toBeDefined();
    expect(lastXhr().aborted).toBe(true);
  });
});
