/**
 * The private image proxy (issue 19 point 6): remote images a person allowed load through the
 * gateway, so the sender learns the gateway's address, never the reader's, and gets no cookie
 * or referrer. The proxy is not open: it fetches only URLs it signed itself, for a signed-in
 * session (`sign`), and a signed URL opens that one image for a day.
 *
 * Expiry is rounded up to the hour, so the same image signed again within the hour gets the
 * same URL and the browser's cache answers a reopened message.
 */
import type { BlockList } from 'node:net';
import { TernError } from '../../shared/errors';
import { LinkMac } from '../crypto/link-mac';
import { fetchImage, type ProxiedImage } from './image-fetch';

export const IMAGE_LINK_TTL_MS = 24 * 3_600_000;
const HOUR_MS = 3_600_000;
/** Longer URLs are not signed (they stay blocked): nothing sane is this long, and query strings have limits. */
export const MAX_PROXIED_URL_CHARS = 4_096;

/** The query of a signed image URL: `u` the remote URL (base64url), `e` its expiry (epoch ms), `s` the MAC. */
export interface ImageLinkQuery {
  readonly u: string;
  readonly e: string;
  readonly s: string;
}

export class ImageProxy {
  private readonly mac: LinkMac;
  private readonly now: () => number;

  constructor(
    private readonly deps: {
      secret: Buffer;
      /** Ranges allowed although not public (TERN_IMAGE_PROXY_ALLOW). */
      allowed?: BlockList;
      now?: () => number;
      fetch?: typeof fetchImage;
    },
  ) {
    this.mac = new LinkMac(deps.secret, 'image-proxy');
    this.now = deps.now ?? Date.now;
  }

  /** Gateway paths (`/api/proxy/image?…`) for the http(s) URLs among `urls`; the others are left out. */
  sign(urls: readonly string[]): Record<string, string> {
    const expiresAt = Math.ceil((this.now() + IMAGE_LINK_TTL_MS) / HOUR_MS) * HOUR_MS;
    const signed: Record<string, string> = {};
    for (const url of urls) {
      if (url.length > MAX_PROXIED_URL_CHARS || !/^https?:\/\//i.test(url)) continue;
      const u = Buffer.from(url, 'utf8').toString('base64url');
      const e = String(expiresAt);
      const query = new URLSearchParams({ u, e, s: this.mac.of(`${e}.${u}`) });
      signed[url] = `/api/proxy/image?${query}`;
    }
    return signed;
  }

  /** The image a signed URL names; ExpiredLink after its day, InvalidParameter for a forged or mangled one. */
  async open(query: ImageLinkQuery): Promise<ProxiedImage> {
    if (!this.mac.matches(`${query.e}.${query.u}`, query.s)) throw new TernError('InvalidParameter', { detail: { reason: 'not a link this gateway signed' } });
    if (Number(query.e) <= this.now()) throw new TernError('ExpiredLink');
    const url = Buffer.from(query.u, 'base64url').toString('utf8');
    return (this.deps.fetch ?? fetchImage)(url, { allowed: this.deps.allowed });
  }
}
