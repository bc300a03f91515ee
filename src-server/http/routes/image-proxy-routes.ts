import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { signImagesRequestSchema, type SignImagesResponse } from '../../../shared/api/image-proxy';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

const imageQuerySchema = z.object({
  u: z.string().regex(/^[A-Za-z0-9_-]{1,6000}$/),
  e: z.string().regex(/^\d{1,15}$/),
  s: z.string().max(64),
});

/**
 *   POST /api/proxy/sign { urls } → SignImagesResponse (a session's call: the proxy is not open)
 *   GET /api/proxy/image?u&e&s → the image (no session: an <img> in the sandboxed frame cannot
 *     send one; the signature is the key). RemoteImageRefused 403 for an address not on the
 *     public internet or a type not passed on, RemoteImageTooLarge 413, RemoteImageUnavailable 502.
 */
export function registerImageProxyRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.post('/api/proxy/sign', { bodyLimit: 2 * 1024 * 1024 }, async (request, reply): Promise<SignImagesResponse> => {
    const { urls } = parseInput(signImagesRequestSchema, request.body, 'InvalidRequestData');
    reply.header('Cache-Control', 'no-store');
    return { signed: ctx.imageProxy.sign(urls) };
  });

  app.get('/api/proxy/image', { config: { auth: 'public' } }, async (request, reply) => {
    const image = await ctx.imageProxy.open(parseInput(imageQuerySchema, request.query));
    return reply
      .header('Content-Type', image.type)
      .header('Content-Length', image.body.length)
      // The URL names one image until its expiry; a reopened message is answered by the browser's cache.
      .header('Cache-Control', 'private, max-age=3600')
      .header('X-Content-Type-Options', 'nosniff')
      // An SVG opened on its own (a new tab) renders in an opaque origin with no script and loads nothing.
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      // Loaded by the mail frame, whose origin is opaque (sandboxed srcdoc).
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(image.body);
  });
}
