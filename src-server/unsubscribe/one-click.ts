/**
 * RFC 8058's one-click unsubscribe: a POST of `List-Unsubscribe=One-Click` to the https
 * address of the message's List-Unsubscribe, made by the gateway (the browser cannot: the
 * list's server sends no CORS headers, and the person's address must not leak a referrer or
 * cookie). The address comes from a stranger's mail, so it is guarded as the image proxy's
 * fetches are (pinned-address.ts): public addresses only, unless the operator allows a range
 * (TERN_UNSUBSCRIBE_ALLOW); no cookie, no redirect followed (RFC 8058 §3.2), time capped.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { TernError } from '../../shared/errors';
import { checkedUnsubscribeUrl } from '../../shared/unsubscribe';
import { checkedAddress, pinnedLookup, type AddressPolicy } from '../image-proxy/pinned-address';

const TIMEOUT_MS = 10_000;
const BODY = 'List-Unsubscribe=One-Click';
const USER_AGENT = 'TernUnsubscribe/1 (+https://tern.mail)';

export interface OneClickOptions extends AddressPolicy {
  readonly timeoutMs?: number;
}

/** Posts the one-click body; resolves with the status once the list's server answered 2xx, else UnsubscribeFailed. */
export async function postOneClick(text: string, options: OneClickOptions = {}): Promise<number> {
  const url = checkedUnsubscribeUrl(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TernError('UnsubscribeLinkRefused', { detail: { url: text.slice(0, 200) } });
  const pinned = await checkedAddress(url.hostname, options, (kind, reason) =>
    kind === 'refused' ? new TernError('UnsubscribeLinkRefused', { detail: { url: text.slice(0, 200), reason } }) : new TernError('UnsubscribeFailed', { detail: { reason } }),
  );
  const signal = AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const status = await new Promise<number>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        lookup: pinnedLookup(pinned),
        signal,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(BODY)), 'user-agent': USER_AGENT },
      },
      (response) => {
        response.resume(); // the answer's body is not read, only its status
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on('error', (error) => reject(new TernError('UnsubscribeFailed', { detail: { reason: signal.aborted ? 'timed out' : error.message } })));
    outgoing.end(BODY);
  });
  if (status < 200 || status >= 300) throw new TernError('UnsubscribeFailed', { detail: { reason: `the server answered ${status}` } });
  return status;
}
