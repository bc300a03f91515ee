/**
 * A message's way out of a mailing list (issue 17 point 2): its List-Unsubscribe header
 * (RFC 2369, a list of <URI>s) and whether List-Unsubscribe-Post offers the one-click POST
 * (RFC 8058). Read by the gateway's mirror when it stores a message and again when it acts on
 * one; only http(s) and mailto addresses are ever used — anything else is refused by name.
 */
import * as z from 'zod';
import { TernError } from './errors';

export const unsubscribeSchema = z.object({
  /** The first http(s) address of the header, or null. */
  http: z.string().nullable(),
  /** The first mailto address of the header, or null. */
  mailto: z.string().nullable(),
  /** RFC 8058: List-Unsubscribe-Post is `List-Unsubscribe=One-Click` and there is an https address to POST it to. */
  oneClick: z.boolean(),
});
export type Unsubscribe = z.infer<typeof unsubscribeSchema>;

/** Longest header value read (a list header is a line or two; anything longer is not one). */
const MAX_HEADER = 4096;

/** The header's `<…>` addresses in order (RFC 2369 §2: angle brackets, comma-separated). */
function addressesOf(header: string): string[] {
  return [...header.slice(0, MAX_HEADER).matchAll(/<([^<>]*)>/g)].map((match) => match[1]!.replace(/\s+/g, ''));
}

/**
 * An address a person may be sent to or that may be POSTed to: http, https or mailto, as a URL
 * without credentials. UnsubscribeLinkRefused, naming it, for any other (javascript:, file:, ftp: …).
 */
export function checkedUnsubscribeUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || !['http:', 'https:', 'mailto:'].includes(url.protocol) || url.username || url.password) {
    throw new TernError('UnsubscribeLinkRefused', { detail: { url: text.slice(0, 200) } });
  }
  return url;
}

/** The header pair read, or null when there is no usable address (other schemes are left out here, never followed). */
export function parseUnsubscribe(listUnsubscribe: string | undefined | null, listUnsubscribePost: string | undefined | null): Unsubscribe | null {
  if (!listUnsubscribe) return null;
  let http: string | null = null;
  let mailto: string | null = null;
  for (const address of addressesOf(listUnsubscribe)) {
    const url = URL.canParse(address) ? new URL(address) : null;
    if (!url || url.username || url.password) continue;
    if ((url.protocol === 'https:' || url.protocol === 'http:') && http === null) http = url.href;
    if (url.protocol === 'mailto:' && mailto === null && url.pathname.includes('@')) mailto = address;
  }
  if (http === null && mailto === null) return null;
  const oneClick = http !== null && http.startsWith('https:') && /(^|[\s;])List-Unsubscribe=One-Click($|[\s;])/i.test((listUnsubscribePost ?? '').trim());
  return { http, mailto, oneClick };
}

/** A mailto: address's recipient, subject and body (RFC 6068), for the unsubscribe mail. */
export function mailtoParts(text: string): { to: string; subject: string; body: string } {
  const url = checkedUnsubscribeUrl(text);
  if (url.protocol !== 'mailto:') throw new TernError('UnsubscribeLinkRefused', { detail: { url: text.slice(0, 200) } });
  const to = decodeURIComponent(url.pathname).split(',')[0]!.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(to)) throw new TernError('UnsubscribeLinkRefused', { detail: { url: text.slice(0, 200) } });
  return { to, subject: url.searchParams.get('subject') ?? 'unsubscribe', body: url.searchParams.get('body') ?? 'unsubscribe' };
}
