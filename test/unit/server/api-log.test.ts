import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isLoggedApiPath } from '../../../shared/api-log-rules';
import { loadConfig } from '../../../src-server/config';
import { createContext } from '../../../src-server/context';
import type { ApiLogLine } from '../../../src-server/http/api-log';
import { createApp } from '../../../src-server/http/app';

let dir: string;
let app: FastifyInstance;
const lines: ApiLogLine[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-apilog-'));
  await mkdir(join(dir, 'public', 'build'), { recursive: true });
  await writeFile(join(dir, 'public', 'build', 'index.html'), '<!doctype html>');
  const ctx = await createContext(loadConfig({ TERN_PUBLIC_DIR: join(dir, 'public'), TERN_DATA_DIR: join(dir, 'data'), TERN_DATABASE_FILE: ':memory:' }));
  app = await createApp(ctx, { apiLog: (line) => lines.push(line) });
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

test('the spec’s excluded paths stay out of the API log; others are logged without their query', async () => {
  await app.inject({ url: '/api/folders', headers: { authorization: 'Bearer x' } });
  await app.inject({ url: '/api/threads?folderId=1&q=secret', headers: { authorization: 'Bearer x' } });
  await app.inject({ url: '/api/health' });
  await app.inject({ url: '/mail/inbox' });
  expect(lines.map((line) => `${line.method} ${line.path} ${line.status}`)).toEqual(['GET /api/threads 401', 'GET /api/health 200']);
  expect(lines[0]!.requestId).toMatch(/^g_/);
});

test('the excluded list matches by containment, ignoring the query', () => {
  expect(isLoggedApiPath('/api/folders/move')).toBe(false);
  expect(isLoggedApiPath('/api/v3/activity/receipts?x=1')).toBe(false);
  expect(isLoggedApiPath('/api/user/preferences')).toBe(false);
  expect(isLoggedApiPath('/api/delta?cursor=folders')).toBe(true);
  expect(isLoggedApiPath('/api/send')).toBe(true);
});
