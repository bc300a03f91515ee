import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './gateway-app-fixture';

let gateway: TestApp;
beforeAll(async () => {
  gateway = await startTestApp({ log: true });
  // A route with a bug of ours, as any handler may have one.
  gateway.app.get('/api/test-bug/:id', async () => {
    throw new Error('the index went missing');
  });
});
afterAll(async () => gateway.close());

const linesOf = (requestId: string) => gateway.logLines.filter((line) => line.requestId === requestId);

describe('the operator log', () => {
  test('every request is one line: method, route pattern (not the URL), status, time and its requestId', async () => {
    const response = await gateway.app.inject({ url: '/api/threads?folderId=7&q=merger', headers: { authorization: 'Bearer nope' } });
    const requestId = String(response.headers['x-request-id']);
    expect(requestId).toMatch(/^g_[0-9a-f]{12}$/);
    const [line, ...more] = linesOf(requestId);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 30, msg: 'request', method: 'GET', route: '/api/threads', status: 401, requestId });
    expect(typeof line!.ms).toBe('number');
    expect(gateway.logText()).not.toContain('merger');
  });

  test('a client’s request id is kept; a malformed one is replaced', async () => {
    const kept = await gateway.app.inject({ url: '/api/health', headers: { 'x-request-id': 'w_261126233900_12_007_abc_Zq9x' } });
    expect(kept.headers['x-request-id']).toBe('w_261126233900_12_007_abc_Zq9x');
    expect(linesOf('w_261126233900_12_007_abc_Zq9x')).toHaveLength(1);
    const replaced = await gateway.app.inject({ url: '/api/health', headers: { 'x-request-id': 'a b\n{"level":60}' } });
    expect(replaced.headers['x-request-id']).toMatch(/^g_/);
  });

  test('a 500 is logged at error level with its stack and requestId; the client gets the catalogue error and the requestId only', async () => {
    const response = await gateway.app.inject({ url: '/api/test-bug/42' });
    const requestId = String(response.headers['x-request-id']);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'InternalServerError', description: 'Something went wrong on our side. Please try again.', requestId });
    expect(response.body).not.toContain('index went missing');
    const error = linesOf(requestId).find((line) => line.level === 50 && line.err);
    expect(error).toBeDefined();
    expect((error!.err as { stack: string }).stack).toMatch(/Error: the index went missing\n\s+at /);
    expect(linesOf(requestId).find((line) => line.msg === 'request')).toMatchObject({ route: '/api/test-bug/:id', status: 500 });
  });

  test('a login’s password and its token, a bearer token and an st= token never reach the log', async () => {
    const refused = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'alice@tern.test', password: 'Wrong-guess-9!' } });
    expect(refused.statusCode).toBe(401);
    const login = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'alice@tern.test', password: 'Alice-pass-1!' } });
    expect(login.statusCode).toBe(200);
    const { token } = login.json() as { token: string };
    await gateway.app.inject({ url: '/api/session', headers: { authorization: `Bearer ${token}` } });
    await gateway.app.inject({ url: `/ae/ws/create?st=${token}` });
    await gateway.app.inject({ url: `/api/nothing?st=${token}` });
    const text = gateway.logText();
    expect(text).toContain('"route":"/api/login"');
    for (const secret of ['Wrong-guess-9!', 'Alice-pass-1!', token]) expect(text).not.toContain(secret);
  });

  test('mail content (a draft’s subject and body, search words) never reaches the log, even when the request fails', async () => {
    const login = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'bob@tern.test', password: 'Bob-pass-2!' } });
    const headers = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
    await gateway.app.inject({ method: 'POST', url: '/api/drafts', headers, payload: { version: 0, subject: 'Merger with Kite', text: 'The merger closes on Tuesday', to: [{ email: 'x@kite.test' }] } });
    await gateway.app.inject({ url: '/api/search?q=merger%20tuesday', headers });
    await gateway.app.inject({ method: 'POST', url: '/api/folders', headers, payload: { name: 'Merger plans' } });
    const routes = gateway.logLines.map((line) => `${line.method} ${line.route}`);
    expect(routes).toEqual(expect.arrayContaining(['POST /api/drafts', 'GET /api/search', 'POST /api/folders']));
    expect(gateway.logText().toLowerCase()).not.toMatch(/merger|tuesday/);
  });
});

describe('refusals before routing', () => {
  test('a malformed %-escape is InvalidRequestData with a requestId, no echo of the URL (Fastify’s own reply echoed it, query and all), and is logged', async () => {
    for (const url of ['/api/messages/%zz/body?st=tok-9f8e7d', '/%E0%A4%A?st=tok-9f8e7d']) {
      const response = await gateway.app.inject({ url });
      const requestId = String(response.headers['x-request-id']);
      expect([response.statusCode, response.json()]).toEqual([400, { error: 'InvalidRequestData', description: 'The request was not understood.', requestId }]);
      expect(linesOf(requestId).find((line) => line.msg === 'request')).toMatchObject({ method: 'GET', route: null, status: 400 });
    }
    expect(gateway.logText()).not.toContain('tok-9f8e7d');
  });
});

describe('404', () => {
  test('an unknown API path gets the catalogue error with a requestId and no echo of the URL', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/api/no-such-thing/%3Cscript%3E?st=abc' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'NoSuchMethod', description: 'There is no such operation.', requestId: response.headers['x-request-id'] });
    expect(response.body).not.toMatch(/no-such-thing|%3C|<script|st=/);
  });
});
