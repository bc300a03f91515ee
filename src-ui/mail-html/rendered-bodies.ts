/**
 * The pipeline's output per body, and the image proxy addresses of its remote images.
 *
 * Sanitising and serialising a large newsletter takes tens of milliseconds on a slow machine;
 * a body reopened (a conversation read again, a message collapsed and expanded, printed)
 * reuses the result. Likewise the gateway signs a body's remote images once. Both are keyed
 * by the body object, so they live as long as whoever holds the body.
 */
import type { BodyView } from '../../shared/worker-mail-api';
import { renderMailHtml, type RenderedMailHtml } from './pipeline';

export type HtmlBody = BodyView & { html: string };
/** Remote URL → the gateway's image proxy address for it. */
export type ProxiedImages = Readonly<Record<string, string>>;
/** Asks the gateway (through the engine) to sign remote image URLs. */
export type ProxyImages = (urls: readonly string[]) => Promise<ProxiedImages>;

const blockedRenders = new WeakMap<BodyView, RenderedMailHtml>();
const proxiedRenders = new WeakMap<BodyView, { images: ProxiedImages; rendered: RenderedMailHtml }>();
const signed = new WeakMap<BodyView, Promise<ProxiedImages>>();

/** The body with remote content blocked, or with its remote images through the proxy. */
export function renderedHtml(body: HtmlBody, images: ProxiedImages | null): RenderedMailHtml {
  if (images === null) {
    let rendered = blockedRenders.get(body);
    if (!rendered) blockedRenders.set(body, (rendered = renderMailHtml({ html: body.html, inlineImages: body.inlineImages, proxiedImages: null })));
    return rendered;
  }
  const known = proxiedRenders.get(body);
  if (known?.images === images) return known.rendered;
  const rendered = renderMailHtml({ html: body.html, inlineImages: body.inlineImages, proxiedImages: images });
  proxiedRenders.set(body, { images, rendered });
  return rendered;
}

/** The proxy addresses of the body's remote images, asked once per body (a failure is asked again next time). */
export function proxiedImagesOf(body: HtmlBody, proxy: ProxyImages): Promise<ProxiedImages> {
  let pending = signed.get(body);
  if (!pending) {
    const urls = renderedHtml(body, null).remoteUrls;
    pending = urls.length === 0 ? Promise.resolve({}) : proxy(urls);
    signed.set(body, pending);
    pending.catch(() => signed.delete(body));
  }
  return pending;
}
