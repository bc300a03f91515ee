import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { TernError } from '../../../../shared/errors';
import { GatewayClient } from '../../../../src-worker/api/gateway-client';
import { createRequestIds, REQUEST_ID_PATTERN } from '../../../../src-worker/api/request-id';
import { isNetworkError, NO_RETRY_ERRORS } from '../../../../src-worker/api/retry';

const okSchema = z.object({ ok: z.boolean() });

function client(answers: ((init: RequestInit) => Promise<Response> | Response)[], options: { timeoutMs?: number } = {}) {
  const seen: { url: string; headers: Headers; at: number }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    seen.push({ url: String(input), headers: new Headers(init.headers), at: performance.now() });
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    return answer(init);
  };
  const gateway = new GatewayClient({
    fetch: fetch as typeof globalThis.fetch,
    session: () => ({ api: 'https://gw.test/api/', token: 'secret' }),
    requestId: createRequestIds({ installationId: 'local-x-a7c' }),
    ...options,
  });
  return { gateway, seen };
}

const fail = (status: number, body: unknown) => () => Response.json(body, { status });

describe('GatewayClient', () => {
  test('sends the token and a client request id; parses the reply', async () => {
    const { gateway, seen } = client([() => Response.json({ ok: true })]);
    await expect(gateway.json({ type: 'delta', path: '/delta', query: { cursor: 5, limit: 10 } }, okSchema)).resolves.toEqual({ ok: true });
    expect(seen[0]!.url).toBe('https://gw.test/api/delta?cursor=5&limit=10');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer secret');
    expect(seen[0]!.headers.get('x-request-id')).toMatch(REQUEST_ID_PATTERN);
    expect(seen[0]!.headers.get('x-request-id')).toContain('DL000a7c');
  });

  test('retries a 5xx with the default 50 ms delay (doubling), each attempt with its own id', async () => {
    const { gateway, seen } = client([fail(500, { error: 'ImapConnectionLost', description: 'lost' }), fail(503, {}), () => Response.json({ ok: true })]);
    await expect(gateway.json({ type: 'delta', path: '/delta' }, okSchema)).resolves.toEqual({ ok: true });
    expect(seen).toHaveLength(3);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(45);
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(95);
    expect(new Set(seen.map((request) => request.headers.get('x-request-id'))).size).toBe(3);
  });

  test('an error on the no-retry list is not repeated and keeps its catalogue name and request id', async () => {
    const { gateway, seen } = client([fail(404, { error: 'TargetFolderNotExists', description: 'The destination folder does not exist.', requestId: 'w_x' })]);
    const error = await gateway.json({ type: 'bulkThreads', path: '/threads/bulk', json: {} }, okSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TernError);
    expect(error).toMatchObject({ name: 'TargetFolderNotExists', requestId: 'w_x', status: 404 });
    expect(seen).toHaveLength(1);
    expect(NO_RETRY_ERRORS.has('InvalidToken')).toBe(true);
    expect(NO_RETRY_ERRORS.has('TooManyRequests')).toBe(false);
  });

  test('a reply saying retry: false is not repeated, even for a 5xx', async () => {
    const { gateway, seen } = client([fail(500, { error: 'OperationFailed', description: 'no', detail: { retry: false } })]);
    await expect(gateway.json({ type: 'send', path: '/send', json: {} }, okSchema)).rejects.toMatchObject({ name: 'OperationFailed' });
    expect(seen).toHaveLength(1);
  });

  test('a request marked retry:false is never repeated', async () => {
    const { gateway, seen } = client([fail(500, {})]);
    await expect(gateway.json({ type: 'files', path: '/files', retry: false }, okSchema)).rejects.toMatchObject({ name: 'InternalServerError' });
    expect(seen).toHaveLength(1);
  });

  test('no answer at all is a network error (retried, then reported as such)', async () => {
    const { gateway, seen } = client([() => Promise.reject(new TypeError('fetch failed'))]);
    const error = await gateway.json({ type: 'delta', path: '/delta' }, okSchema).catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    expect(seen).toHaveLength(3);
  });

  test('a request that takes too long ends as RequestTimeout', async () => {
    const hang = (init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const { gateway } = client([hang], { timeoutMs: 30 });
    await expect(gateway.json({ type: 'body', path: '/messages/1/body', retry: false }, okSchema)).rejects.toMatchObject({ name: 'RequestTimeout', detail: { url: 'https://gw.test/api/messages/1/body' } });
  });

  test('a reply that does not match the schema is an InternalServerError, not a crash later', async () => {
    const { gateway } = client([() => Response.json({ ok: 'yes' })]);
    await expect(gateway.json({ type: 'delta', path: '/delta', retry: false }, okSchema)).rejects.toMatchObject({ name: 'InternalServerError', detail: { reason: 'unexpected reply' } });
  });
});
