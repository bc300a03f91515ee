// fetchImage against real local HTTP servers: one on 127.0.0.77, which the tests allow the way an
// operator would (TERN_IMAGE_PROXY_ALLOW), and a canary on 127.0.0.1 that must never be reached.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { allowedRanges, fetchImage, MAX_IMAGE_BYTES } from '../../../../src-server/image-proxy/image-fetch';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const allowed = allowedRanges(['127.0.0.77']);
let images: Server;
let canary: Server;
let imagesUrl: string;
let canaryPort: number;
let canaryHits = 0;
const seenHeaders: Record<string, string | string[] | undefined>[] = [];

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  images = createServer((request, response) => {
    seenHeaders.push(request.headers);
    const path = request.url ?? '/';
    if (path === '/pixel.png') response.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(PNG);
    else if (path === '/logo.svg') response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    else if (path === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end('alert(1)');
    else if (path === '/page.html') response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>');
    else if (path === '/huge-declared.png') response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(MAX_IMAGE_BYTES + 1) }).end();
    else if (path === '/huge-streamed.png') {
      response.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024);
      const write = (left: number): void => {
        if (left === 0 || response.destroyed) return void response.end();
        response.write(chunk, () => write(left - 1));
      };
      write(8);
    } else if (path === '/to-loopback') response.writeHead(302, { location: `http://127.0.0.1:${canaryPort}/x.png` }).end();
    else if (path === '/to-metadata') response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (path === '/to-file') response.writeHead(302, { location: 'file:///etc/passwd' }).end();
    else if (path === '/hop') response.writeHead(302, { location: '/pixel.png' }).end();
    else if (path.startsWith('/loop')) response.writeHead(302, { location: `/loop${path.length}` }).end();
    else if (path === '/never') response.writeHead(200, { 'content-type': 'image/png' }); // headers, then nothing
    else response.writeHead(404).end();
  });
  canary = createServer((_request, response) => {
    canaryHits++;
    response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  imagesUrl = `http://127.0.0.77:${await listen(images, '127.0.0.77')}`;
  canaryPort = await listen(canary, '127.0.0.1');
});

afterAll(async () => {
  images.closeAllConnections();
  await new Promise((resolve) => images.close(resolve));
  await new Promise((resolve) => canary.close(resolve));
});

beforeEach(() => {
  canaryHits = 0;
  seenHeaders.length = 0;
});

describe('fetchImage', () => {
  test('an allowed image comes back with its bare type; the request carries no cookie, referrer or client address', async () => {
    const image = await fetchImage(`${imagesUrl}/pixel.png`, { allowed });
    expect(image).toEqual({ type: 'image/png', body: PNG });
    expect(seenHeaders[0]).not.toHaveProperty('cookie');
    expect(seenHeaders[0]).not.toHaveProperty('referer');
    expect(seenHeaders[0]).not.toHaveProperty('x-forwarded-for');
    expect(seenHeaders[0]!['user-agent']).toMatch(/^TernImageProxy/);
  });

  test('SVG passes as an image (the route serves it sandboxed, and an <img> runs no script)', async () => {
    expect((await fetchImage(`${imagesUrl}/logo.svg`, { allowed })).type).toBe('image/svg+xml');
  });

  test('a redirect within the allowed host is followed', async () => {
    expect((await fetchImage(`${imagesUrl}/hop`, { allowed })).body).toEqual(PNG);
  });

  test('without the operator allowance the same loopback host is refused before any connection', async () => {
    await expect(fetchImage(`${imagesUrl}/pixel.png`)).rejects.toMatchObject({ name: 'RemoteImageRefused' });
    expect(seenHeaders).toHaveLength(0);
  });

  test.each([
    ['script', '/app.js', 'RemoteImageRefused'],
    ['HTML', '/page.html', 'RemoteImageRefused'],
    ['a declared length over the cap', '/huge-declared.png', 'RemoteImageTooLarge'],
    ['a body that grows over the cap', '/huge-streamed.png', 'RemoteImageTooLarge'],
    ['a 404', '/missing.png', 'RemoteImageUnavailable'],
    ['more than three redirects', '/loop', 'RemoteImageUnavailable'],
  ])('%s is refused', async (_case, path, error) => {
    await expect(fetchImage(`${imagesUrl}${path}`, { allowed })).rejects.toMatchObject({ name: error });
  });

  test.each([
    ['to loopback', '/to-loopback', 'RemoteImageRefused'],
    ['to the metadata address', '/to-metadata', 'RemoteImageRefused'],
    ['to file:', '/to-file', 'RemoteImageRefused'],
  ])('a redirect %s is refused and never reached', async (_case, path, error) => {
    await expect(fetchImage(`${imagesUrl}${path}`, { allowed })).rejects.toMatchObject({ name: error });
    expect(canaryHits).toBe(0);
  });

  test('a server that stops sending is cut at the deadline', async () => {
    await expect(fetchImage(`${imagesUrl}/never`, { allowed, timeoutMs: 300 })).rejects.toMatchObject({ name: 'RemoteImageUnavailable' });
  });

  test('DNS rebinding: the connection goes to the address that was checked, not to a second answer', async () => {
    const answers = [[{ address: '127.0.0.77', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    let lookups = 0;
    const resolve = async () => answers[Math.min(lookups++, 1)]!;
    const port = new URL(imagesUrl).port;
    const image = await fetchImage(`http://images.rebind.test:${port}/pixel.png`, { allowed, resolve });
    expect(image.body).toEqual(PNG);
    expect(lookups).toBe(1);
    expect(canaryHits).toBe(0);
  });

  test('a name with one private address among public ones is refused whole', async () => {
    const resolve = async () => [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }];
    await expect(fetchImage(`http://mixed.test:${canaryPort}/x.png`, { resolve })).rejects.toMatchObject({ name: 'RemoteImageRefused' });
    expect(canaryHits).toBe(0);
  });
});
