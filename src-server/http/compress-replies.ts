import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** Below this a reply is sent as it is: the headers and the CPU would cost more than the bytes saved. */
export const COMPRESS_MIN_BYTES = 1024;

/** The encodings the gateway compresses replies with, best first. */
export type ReplyEncoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli at quality 4: about as fast as gzip's default and a few percent smaller on JSON.
 * The top qualities cost 10–100× the CPU and are for the build's precompressed files.
 */
const BROTLI_OPTIONS = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } };

/**
 * The encoding to answer with, from an `Accept-Encoding` header (RFC 9110 §12.5.3):
 * brotli if acceptable, else gzip, else none. `q=0` refuses a coding; `*` stands for any
 * coding not named. No header means identity.
 */
export function chooseEncoding(header: string | string[] | undefined): ReplyEncoding | null {
  if (header === undefined) return null;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (coding: ReplyEncoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/** JSON the API made (application/json, optionally with a charset); files keep their own types. */
const COMPRESSIBLE_TYPE = /^application\/json\b/i;

/**
 * Compresses the API's JSON replies by `Accept-Encoding` (issue 13 point 1: a delta page
 * of 2,000 messages is 1.44 MB of JSON). Only whole replies the gateway serialized itself:
 * streams (downloads, the static shell, which has its own precompressed files) go out as
 * they are, and so does anything carrying a Content-Disposition (a mail's attachment,
 * whatever its type) or already encoded. zlib runs on libuv's thread pool, off the event
 * loop. The websocket is not touched: its frames are a few dozen bytes.
 */
export function registerReplyCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (request.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 206 || reply.statusCode === 304) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !COMPRESSIBLE_TYPE.test(type)) return payload;
    if (reply.hasHeader('content-encoding') || reply.hasHeader('content-disposition')) return payload;
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (size < COMPRESS_MIN_BYTES) return payload;
    // The reply's bytes depend on the request's Accept-Encoding from here on, whichever is chosen.
    reply.header('Vary', 'Accept-Encoding');
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const packed = encoding === 'br' ? await brotli(payload, BROTLI_OPTIONS) : await gzipAsync(payload, { level: 6 });
    reply.header('Content-Encoding', encoding);
    // Fastify sets Content-Length from the new payload; a length a route set for the old one must go.
    reply.removeHeader('content-length');
    return packed;
  });
}
