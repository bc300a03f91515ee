import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src-server/config';
import { createContext } from '../../../src-server/context';
import { createApp } from '../../../src-server/http/app';

let publicDir: string;
let app: FastifyInstance;
beforeAll(async () => {
  publicDir = await mkdtemp(join(tmpdir(), 'tern-public-'));
  await mkdir(join(publicDir, 'build'));
  await writeFile(join(publicDir, 'build', 'index.html'), '<!doctype html><title>T</title>');
  await writeFile(join(publicDir, 'build', 'app-ABCDEFGH.js'), 'console.log(1)');
  await writeFile(join(publicDir, 'index.html'), '{{title}}');
  app = await createApp(await createContext(loadConfig({ TERN_PUBLIC_DIR: publicDir, TERN_DATA_DIR: join(publicDir, 'data'), TERN_DATABASE_FILE: ':memory:' })));
});
afterAll(async () => {
  await app.close();
  await rm(publicDir, { recursive: true, force: true });
});

describe('static shell', () => {
  test('serves the built page with a strict CSP', async () => {
    const response = await app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>T</title>');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // A blob: frame would be a document of the app's origin made from mail bytes.
    expect(response.headers['content-security-policy']).toMatch(/frame-src 'self'(;|$)/);
  });

  test('client-side routes get the page; API misses get a catalogue error', async () => {
    expect((await app.inject({ url: '/mail/inbox' })).body).toContain('<title>T</title>');
    expect((await app.inject({ url: '/mail/unified/inbox?q=invoice.pdf' })).body).toContain('<title>T</title>');
    expect((await app.inject({ url: '/build/missing.js' })).statusCode).toBe(404);
    const api = await app.inject({ url: '/api/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: 'NoSuchMethod' });
  });

  test('hashed bundles are cached forever, the template is not served', async () => {
    const bundle = await app.inject({ url: '/build/app-ABCDEFGH.js' });
    expect(bundle.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ url: '/index.html' })).statusCode).toBe(404);
  });

  test('health reports the version', async () => {
    expect((await app.inject({ url: '/api/health' })).json()).toEqual({ ok: true, version: '5.33.0' });
  });
});

describe('configuration', () => {
  test('a bad port is refused with the variable named', () => {
    expect(() => loadConfig({ TERN_PORT: 'eighty' })).toThrow(/TERN_PORT/);
    expect(() => loadConfig({ TERN_PORT: '70000' })).toThrow(/TERN_PORT/);
  });
  test('defaults are loopback and 8080', () => {
    expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', port: 8080 });
  });
  test('TERN_TRUST_PROXY: off by default; a hop count or proxy addresses; "true" and non-addresses refused with the variable named', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TERN_TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TERN_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TERN_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    expect(() => loadConfig({ TERN_TRUST_PROXY: 'true' })).toThrow(/TERN_TRUST_PROXY: trusting every hop/);
    expect(() => loadConfig({ TERN_TRUST_PROXY: 'proxy.local' })).toThrow(/TERN_TRUST_PROXY: "proxy.local" is not an IP address/);
    expect(() => loadConfig({ TERN_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TERN_TRUST_PROXY/);
  });
  test('TERN_LOG_LEVEL: info by default, pino levels only', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ TERN_LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(() => loadConfig({ TERN_LOG_LEVEL: 'loud' })).toThrow(/TERN_LOG_LEVEL/);
  });
});
