/**
 * The MAC of a signed link (attachment previews, proxied images): HMAC-SHA256 under a key
 * of one purpose, base64url, compared in constant time. The purpose is mixed in too, so a
 * token made for one kind of link never opens another even under one key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A MAC as it appears in a link: 43 base64url characters. */
export const LINK_MAC_PATTERN = '[A-Za-z0-9_-]{43}';

export class LinkMac {
  constructor(
    private readonly secret: Buffer,
    private readonly purpose: string,
  ) {}

  of(payload: string): string {
    return createHmac('sha256', this.secret).update(`${this.purpose}:${payload}`).digest('base64url');
  }

  matches(payload: string, mac: string): boolean {
    const expected = Buffer.from(this.of(payload));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
