// The private image proxy through a real gateway over HTTP (issue 19 point 6): an image the
// gateway signed loads through it with its headers stripped, and 50 server-side request forgery
// attempts — loopback, private, link-local and metadata addresses in every spelling, IPv4 inside
// IPv6, names that resolve to loopback, redirects into the network, other schemes, forged and
// unsigned links — are all refused, with canaries on 127.0.0.1 and ::1 that are never reached.
// The test's own image server is on 127.0.0.77, which the gateway is told to allow the way an
// operator would allow an internal image host (TERN_IMAGE_PROXY_ALLOW).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src-server/config';
import { closeContext, createContext, type GatewayContext } from '../../src-server/context';
import { createApp } from '../../src-server/http/app';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
let dir: string;
let ctx: GatewayContext;
let app: FastifyInstance;
let gateway: string;
let token: string;
let images: Server;
let imagesUrl: string;
const canaries: Server[] = [];
let canaryHits = 0;
let P = 0; // the IPv4 canary's port
let P6 = 0; // the IPv6 canary's port

const listen = (server: Server, host: string) => new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-image-proxy-'));
  await mkdir(join(dir, 'build'));
  await writeFile(join(dir, 'build', 'index.html'), '<!doctype html><title>Tern</title>');
  ctx = await createContext(loadConfig({ TERN_DATA_DIR: dir, TERN_PUBLIC_DIR: dir, TERN_IMAGE_PROXY_ALLOW: '127.0.0.77', TERN_LOG_LEVEL: 'silent' }));
  app = await createApp(ctx);
  gateway = await app.listen({ host: '127.0.0.1', port: 0 });
  const server = { host: '127.0.0.1', port: 1, security: 'none' as const };
  const account = await ctx.accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'x' });
  token = await ctx.sessions.create(account.id);

  for (const host of ['127.0.0.1', '::1']) {
    const canary = createServer((_request, response) => {
      canaryHits++;
      response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    canaries.push(canary);
    const port = await listen(canary, host);
    if (host === '::1') P6 = port;
    else P = port;
  }
  images = createServer((request, response) => {
    const to = (location: string) => response.writeHead(302, { location }).end();
    if (request.url === '/pixel.png') response.writeHead(200, { 'content-type': 'image/png', 'set-cookie': 'track=1', 'x-tracker': 'yes' }).end(PNG);
    else if (request.url === '/logo.svg') response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    else if (request.url === '/page.html') response.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
    else if (request.url === '/to-loopback') to(`http://127.0.0.1:${P}/x.png`);
    else if (request.url === '/to-decimal-loopback') to(`http://2130706433:${P}/x.png`);
    else if (request.url === '/to-ipv6-loopback') to(`http://[::1]:${P6}/x.png`);
    else if (request.url === '/to-metadata') to('http://169.254.169.254/latest/meta-data/iam/');
    else if (request.url === '/to-localhost') to(`http://localhost:${P}/x.png`);
    else if (request.url === '/to-file') to('file:///etc/passwd');
    else response.writeHead(404).end();
  });
  imagesUrl = `http://127.0.0.77:${await listen(images, '127.0.0.77')}`;
});

afterAll(async () => {
  await app?.close();
  if (ctx) await closeContext(ctx);
  for (const server of [images, ...canaries]) if (server) await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function sign(urls: string[]): Promise<Record<string, string>> {
  const response = await fetch(`${gateway}/api/proxy/sign`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ urls }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { signed: Record<string, string> }).signed;
}

describe('the image proxy', () => {
  test('an allowed image loads through the gateway: its type, sandboxed, without the sender\'s cookie or headers', async () => {
    const url = `${imagesUrl}/pixel.png`;
    const { [url]: path } = await sign([url]);
    expect(path).toMatch(/^\/api\/proxy\/image\?u=[\w-]+&e=\d+&s=[\w-]{43}$/);
    const response = await fetch(`${gateway}${path}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('x-tracker')).toBeNull();
    // An SVG passes, served so that opened on its own it runs no script.
    const svg = await fetch(`${gateway}${(await sign([`${imagesUrl}/logo.svg`]))[`${imagesUrl}/logo.svg`]}`);
    expect([svg.status, svg.headers.get('content-type'), svg.headers.get('content-security-policy')]).toEqual([200, 'image/svg+xml', "default-src 'none'; sandbox"]);
  });

  test('signing needs a session; a link needs this gateway\'s signature', async () => {
    const unsigned = await fetch(`${gateway}/api/proxy/sign`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ urls: [`${imagesUrl}/pixel.png`] }) });
    expect([unsigned.status, ((await unsigned.json()) as { error: string }).error]).toEqual([400, 'TokenParamMissing']);
    const { [`${imagesUrl}/pixel.png`]: path } = await sign([`${imagesUrl}/pixel.png`]);
    const forged = new URL(path!, gateway);
    forged.searchParams.set('u', Buffer.from(`http://127.0.0.1:${P}/x.png`).toString('base64url'));
    const reply = await fetch(forged);
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: string }).error).toBe('InvalidParameter');
    expect((await fetch(`${gateway}/api/proxy/image?u=aHR0cDovLzEyNy4wLjAuMS8&e=99999999999999&s=x`)).status).toBe(400);
  });

  test('schemes other than http(s) are never signed', async () => {
    const others = ['file:///etc/passwd', `gopher://127.0.0.1:${P}/_GET`, 'ftp://127.0.0.1/x.png', 'data:image/png;base64,iVBORw0KGgo=', 'javascript:alert(1)', `//127.0.0.1:${P}/x.png`];
    expect(await sign(others)).toEqual({});
  });

  const REFUSED = (): string[] => [
    // loopback, every spelling the URL parser accepts
    `http://127.0.0.1:${P}/x.png`, `https://127.0.0.1:${P}/x.png`, `http://127.1:${P}/x.png`, `http://2130706433:${P}/x.png`,
    `http://0x7f000001:${P}/x.png`, `http://0177.0.0.1:${P}/x.png`, `http://0x7f.0.0.1:${P}/x.png`, `http://017700000001:${P}/x.png`,
    `http://127.0.0.2:${P}/x.png`, `http://localhost:${P}/x.png`, `http://0.0.0.0:${P}/x.png`, `http://0:${P}/x.png`,
    `http://[::1]:${P6}/x.png`, `http://[0:0:0:0:0:0:0:1]:${P6}/x.png`, `http://[::]:${P6}/x.png`,
    // IPv4 inside IPv6
    `http://[::ffff:127.0.0.1]:${P}/x.png`, `http://[::ffff:7f00:1]:${P}/x.png`, `http://[0:0:0:0:0:ffff:127.0.0.1]:${P}/x.png`,
    `http://[::127.0.0.1]:${P}/x.png`, `http://[64:ff9b::127.0.0.1]:${P}/x.png`, `http://[2002:7f00:1::]:${P}/x.png`,
    'http://[::ffff:10.0.0.1]/x.png', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/', 'http://[::ffff:192.168.0.1]/x.png',
    // private, link-local, metadata, shared and reserved ranges
    'http://10.0.0.1/x.png', 'http://10.255.255.255/x.png', 'http://172.16.0.1/x.png', 'http://172.31.255.254/x.png',
    'http://192.168.0.1/x.png', 'http://169.254.169.254/latest/meta-data/', 'http://169.254.0.1/x.png',
    'http://2852039166/latest/meta-data/', 'http://0xa9fea9fe/latest/meta-data/', 'http://100.64.0.1/x.png', 'http://100.100.100.200/latest/meta-data/',
    'http://198.18.0.1/x.png', 'http://224.0.0.1/x.png', 'http://255.255.255.255/x.png',
    'http://[fe80::1]/x.png', 'http://[fe80::1%25eth0]/x.png', 'http://[fc00::1]/x.png', 'http://[fd00:ec2::254]/latest/meta-data/',
    // credentials in the address
    `http://user:pass@127.0.0.1:${P}/x.png`,
    // redirects from the allowed host into the network, and out of http
    `${imagesUrl}/to-loopback`, `${imagesUrl}/to-decimal-loopback`, `${imagesUrl}/to-ipv6-loopback`, `${imagesUrl}/to-metadata`, `${imagesUrl}/to-localhost`, `${imagesUrl}/to-file`,
    // not an image
    `${imagesUrl}/page.html`,
  ];

  test('50 forgery attempts are refused with RemoteImageRefused, and no canary is reached', async () => {
    const urls = REFUSED();
    expect(urls).toHaveLength(50);
    const signed = await sign(urls);
    const outcomes: string[] = [];
    for (const url of urls) {
      expect(signed[url], url).toBeDefined();
      const response = await fetch(`${gateway}${signed[url]}`);
      const body = (await response.json()) as { error: string };
      outcomes.push(`${response.status} ${body.error} ${url}`);
    }
    expect(outcomes.filter((line) => !line.startsWith('403 RemoteImageRefused '))).toEqual([]);
    expect(canaryHits).toBe(0);
  });
});
