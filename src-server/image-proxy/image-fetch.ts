/**
 * Fetches one remote image for the image proxy, on the sender's terms never: the address is
 * checked after DNS resolution and the connection goes to exactly the address checked (no
 * second lookup a rebinding DNS server could answer differently); each redirect is checked the
 * same way; size and time are capped; only image types pass (an SVG's script cannot run: the
 * route answers with a sandbox CSP, and an <img> never runs one);
 * no cookie, referrer or client address is sent, and nothing of the reply but its bytes and
 * type is kept.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { TernError } from '../../shared/errors';
import { checkedAddress, pinnedLookup } from './pinned-address';

/** Types passed on; the reply's type is one of these or the image is refused. */
export const PROXIED_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 10_000;
const USER_AGENT = 'TernImageProxy/1 (+https://tern.mail)';

export interface ProxiedImage {
  readonly type: string;
  readonly body: Buffer;
}

export interface ImageFetchOptions {
  /** Ranges the operator lets the proxy reach although they are not public (TERN_IMAGE_PROXY_ALLOW). */
  readonly allowed?: BlockList;
  /** Resolves a host name to every address it has (default: the system's resolver). */
  readonly resolve?: (host: string) => Promise<readonly { address: string; family: number }[]>;
  readonly timeoutMs?: number;
}

/** The image at `url`: RemoteImageRefused for an address not allowed, TooLarge, Unavailable for the rest. */
export async function fetchImage(url: string, options: ImageFetchOptions = {}): Promise<ProxiedImage> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS);
  let current = parseImageUrl(url);
  for (let hop = 0; ; hop++) {
    const address = await checkedAddress(current.hostname, options, (kind, reason) => (kind === 'refused' ? refused(reason) : unavailable(reason)));
    const response = await get(current, address, deadline);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.destroy();
      if (hop === MAX_REDIRECTS) throw unavailable('too many redirects');
      current = parseImageUrl(new URL(response.headers.location, current).href);
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw unavailable(`the server answered ${status}`);
    }
    const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!PROXIED_IMAGE_TYPES.has(type)) {
      response.destroy();
      throw new TernError('RemoteImageRefused', { detail: { reason: `not an image type passed on (${type || 'none'})` } });
    }
    return { type, body: await readCapped(response, deadline) };
  }
}

/** An http(s) URL without credentials; anything else is refused before any lookup. */
function parseImageUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw refused('only http and https images are fetched');
  if (url.username || url.password) throw refused('credentials in the address');
  return url;
}

function get(url: URL, pinned: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
  // The socket goes to the address checked above, whatever DNS would answer now.
  const lookup = pinnedLookup(pinned);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'GET', lookup, signal, headers: { 'user-agent': USER_AGENT, accept: 'image/avif,image/webp,image/png,image/*;q=0.8' } }, resolve);
    outgoing.on('error', (error) => reject(signal.aborted ? unavailable('timed out') : unavailable(error.message)));
    outgoing.end();
  });
}

async function readCapped(response: IncomingMessage, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (declared > MAX_IMAGE_BYTES) {
    response.destroy();
    throw new TernError('RemoteImageTooLarge');
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > MAX_IMAGE_BYTES) throw new TernError('RemoteImageTooLarge');
      chunks.push(chunk);
    }
  } catch (error) {
    response.destroy();
    if (error instanceof TernError) throw error;
    throw unavailable(signal.aborted ? 'timed out' : 'the connection broke');
  }
  return Buffer.concat(chunks);
}

const refused = (reason: string) => new TernError('RemoteImageRefused', { detail: { reason } });
const unavailable = (reason: string) => new TernError('RemoteImageUnavailable', { detail: { reason } });

/** TERN_IMAGE_PROXY_ALLOW's CIDRs as a BlockList. */
export function allowedRanges(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', prefix] = cidr.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(address, prefix === undefined ? (family === 'ipv6' ? 128 : 32) : Number(prefix), family);
  }
  return list;
}
