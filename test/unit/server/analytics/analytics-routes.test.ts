import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../../../src-server/config';
import { createContext, type GatewayContext } from '../../../../src-server/context';
import { createApp } from '../../../../src-server/http/app';

let dir: string;
let ctx: GatewayContext;
let app: FastifyInstance;
let token: string;
let accountId: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-analytics-'));
  await mkdir(join(dir, 'public', 'build'), { recursive: true });
  await writeFile(join(dir, 'public', 'build', 'index.html'), '<!doctype html>');
  ctx = await createContext(loadConfig({ TERN_PUBLIC_DIR: join(dir, 'public'), TERN_DATA_DIR: join(dir, 'data'), TERN_DATABASE_FILE: ':memory:' }));
  app = await createApp(ctx);
  const account = await ctx.accounts.save({
    email: 'ana@tern.test',
    name: 'Ana',
    imap: { host: '127.0.0.1', port: 1, security: 'none' },
    smtp: { host: '127.0.0.1', port: 1, security: 'none' },
    password: 'pw',
  });
  accountId = account.id;
  token = await ctx.sessions.create(account.id);
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const event = (id: string, eventName = 'login_success') => ({
  eventName,
  eventTs: 1_700_000_000_000,
  attrs: {
    event_id: id,
    locale: 'en-GB',
    timezone: 'Europe/Paris',
    app_version: '5.33.0',
    os: 'Linux',
    os_version: '0',
    browser: 'Chrome',
    browser_version: '156',
    device_id: 'device-9',
    device: 'web',
    no_of_accounts: 1,
    account_ids: ['1'],
    primary_account_id: '1',
  },
  hattrs: {},
});
const body = (events: unknown[]) => ({ events, product: 'email', type: 'flock_account' });

test('addEvents stores a logged-in batch once, even when the batch is retried', async () => {
  const send = () =>
    app.inject({ method: 'POST', url: '/api/analytics/addEvents', headers: { authorization: `Bearer ${token}`, 'x-tern-client': '{"client":"web_mail"}' }, payload: body([event('e1'), event('e2')]) });
  expect((await send()).statusCode).toBe(204);
  expect((await send()).statusCode).toBe(204);
  expect((await ctx.analytics.list(accountId)).map((row) => row.eventId)).toEqual(['e1', 'e2']);
});

test('addEvents without a live session is InvalidToken, which logs the worker out', async () => {
  const response = await app.inject({ method: 'POST', url: '/api/analytics/addEvents', headers: { authorization: 'Bearer nope' }, payload: body([event('e3')]) });
  expect(response.statusCode).toBe(401);
  expect(response.json()).toMatchObject({ error: 'InvalidToken' });
});

test('addPreAuthEvents needs no token and keeps the entity id', async () => {
  const response = await app.inject({ method: 'POST', url: '/api/analytics/addPreAuthEvents', payload: body([{ ...event('p1', 'login_page_viewed'), entityId: 'device-9' }]) });
  expect(response.statusCode, response.body).toBe(204);
  expect(await ctx.analytics.list(null)).toEqual([{ eventName: 'login_page_viewed', eventId: 'p1', entityId: 'device-9' }]);
});

test('unknown event names, oversized batches, event ids longer than 128 characters and wrong products are refused whole', async () => {
  for (const payload of [body([event('x1', 'not_an_event')]), body([event('x'.repeat(3000))]), body(Array.from({ length: 101 }, (_, i) => event(`b${i}`))), { ...body([event('x2')]), product: 'chat' }]) {
    const response = await app.inject({ method: 'POST', url: '/api/analytics/addPreAuthEvents', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'InvalidRequestData' });
  }
  expect((await ctx.analytics.list(null)).map((row) => row.eventId)).toEqual(['p1']);
});
