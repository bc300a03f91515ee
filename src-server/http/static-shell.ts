import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { TernError } from '../../shared/errors';

/** The app page's policy: only our own scripts, workers and connections. */
const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  // No remote host: images a person allows in a mail load through the gateway's image proxy ('self').
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  // No blob: frames: nothing from a mail may render in the app's origin (previews come from the gateway, sandboxed).
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the static shell: the built page for every app URL (client-side routes), hashed
 * bundles cached forever, and the rest of public/ (status image, icons) uncached.
 */
export async function registerStaticShell(app: FastifyInstance, publicDir: string): Promise<void> {
  const page = join(publicDir, 'build', 'index.html');
  if (!existsSync(page)) {
    throw new Error(`No built page at ${page}. Run \`node build.mjs\` first.`);
  }
  await app.register(fastifyStatic, {
    root: publicDir,
    index: false,
    wildcard: true,
    cacheControl: false, // set per file below
    // The template is not a page of its own; only the built copy is served.
    allowedPath: (path) => path !== '/index.html',
    // build.mjs writes x.br and x.gz beside each text file: sent by Accept-Encoding, with no work per request.
    preCompressed: true,
    setHeaders(res, path) {
      // `path` is the file sent, so `app-X.js.br` when the brotli copy goes out.
      const hashed = /-[A-Z0-9]{8}\.(js|css|map|aff|dic)(\.br|\.gz)?$/.test(path);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // Caches keep one copy per encoding: a gzip-only client must never get the brotli bytes.
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  const sendPage = (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', APP_CSP)
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .sendFile('build/index.html');
  app.get('/', sendPage);
  // The service worker (build.mjs, src-ui/offline/service-worker.ts) at the root, so its scope is the whole app; never cached, so a deploy is seen.
  app.get('/sw.js', (_request, reply) => reply.header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').type('text/javascript').sendFile('build/sw.js'));
  // Client-side routes load the same page; API and asset misses stay 404s.
  app.setNotFoundHandler((request, reply) => {
    // Decide on the path alone: a query such as ?q=invoice.pdf must still get the page.
    const path = request.url.split('?', 1)[0]!;
    const wantsPage = request.method === 'GET' && !path.startsWith('/api/') && !path.includes('.');
    if (wantsPage) return sendPage(request, reply);
    // The catalogue's error with the request id; the URL is not echoed (it may carry a token or search words).
    return reply.code(404).send(new TernError('NoSuchMethod', { requestId: request.id }).toReply());
  });
}
