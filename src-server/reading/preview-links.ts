/**
 * Short-lived, single-purpose links to preview one attachment (issue point 12, DESIGN §5).
 *
 * A preview must come from the gateway, never from a `blob:` of the app's origin: the
 * gateway's response carries `Content-Security-Policy: sandbox`, so even an SVG opened in
 * a new tab runs in an opaque origin with no script. But an `<img>`, `<video>` or frame
 * cannot send the session's bearer token (the worker holds it). So the worker asks for a
 * link: an HMAC over account, message, part and expiry, under a secret of this gateway
 * process. It opens that one part for a few minutes and nothing else.
 *
 * The secret is derived from the gateway's key (SecretBox.derive), which every node of a
 * cluster shares, so a link one node signed opens on the node the balancer picks next.
 */
import { randomBytes } from 'node:crypto';
import { TernError } from '../../shared/errors';
import { LINK_MAC_PATTERN, LinkMac } from '../crypto/link-mac';

/** How long a link opens its part: long enough to look, short enough that a copied link soon dies. */
export const PREVIEW_LINK_TTL_MS = 5 * 60_000;

export interface PreviewTarget {
  readonly accountId: number;
  readonly messageId: number;
  readonly index: number;
}

const TOKEN = new RegExp(`^(\\d{1,15})\\.(\\d{1,15})\\.(\\d{1,4})\\.(\\d{1,15})\\.(${LINK_MAC_PATTERN})$`);

export class PreviewLinks {
  private readonly mac: LinkMac;
  private readonly now: () => number;

  /** `secret`: the gateway's derived key; a random one (a test's) opens only this process's links. */
  constructor(deps: { secret?: Buffer; now?: () => number } = {}) {
    this.mac = new LinkMac(deps.secret ?? randomBytes(32), 'attachment-preview');
    this.now = deps.now ?? Date.now;
  }

  /** A token for one part, and when it stops working (epoch ms). */
  sign(target: PreviewTarget): { token: string; expiresAt: number } {
    const expiresAt = this.now() + PREVIEW_LINK_TTL_MS;
    const payload = `${target.accountId}.${target.messageId}.${target.index}.${expiresAt}`;
    return { token: `${payload}.${this.mac.of(payload)}`, expiresAt };
  }

  /** The part a token opens; FileNotFound for a forged or mangled one, ExpiredLink once its time is up. */
  verify(token: string): PreviewTarget {
    const match = TOKEN.exec(token);
    if (!match) throw new TernError('FileNotFound');
    const [, accountId, messageId, index, expiresAt, mac] = match as unknown as [string, string, string, string, string, string];
    if (!this.mac.matches(`${accountId}.${messageId}.${index}.${expiresAt}`, mac)) throw new TernError('FileNotFound');
    if (Number(expiresAt) <= this.now()) throw new TernError('ExpiredLink');
    return { accountId: Number(accountId), messageId: Number(messageId), index: Number(index) };
  }
}
