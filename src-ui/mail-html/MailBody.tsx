/**
 * A message body as the reader sees it: HTML through the pipeline into the sandboxed
 * frame, or plain text; plus the bar that offers to show remote images, and for a very
 * large HTML body (the gateway sent its first part, BodyView.truncated) the bar that
 * offers the whole.
 */
import { useEffect, useMemo, useState } from 'react';
import { MAX_SHOWN_HTML_CHARS } from '../../shared/api/mail';
import { formatFileSize } from '../../shared/file-size';
import type { BodyView } from '../../shared/worker-mail-api';
import { Icon } from '../kit/icons';
import { IsolatedMailFrame } from './IsolatedMailFrame';
import { MailFrame } from './MailFrame';
import { PlainTextBody } from './PlainTextBody';
import { proxiedImagesOf, renderedHtml, type HtmlBody, type ProxiedImages, type ProxyImages } from './rendered-bodies';
import { useLocale, useT } from '../kit/i18n';

export interface MailBodyProps {
  readonly body: BodyView;
  /** Remote content is allowed: for this message, or its sender is trusted. */
  readonly allowRemote: boolean;
  /** Signs the remote image URLs for the gateway's image proxy: allowed images load only through it. */
  readonly proxyImages?: ProxyImages;
  /** The sender's address, offered for "always show from this sender"; absent → only "Show images". */
  readonly senderEmail?: string;
  /** "Show images" for this message only. */
  readonly onAllowMessage: () => void;
  /** "Always show images from this sender". */
  readonly onAllowSender: (email: string) => void;
  /** The sender is on the allow-list: a line says so and offers to stop. */
  readonly senderTrusted?: boolean;
  /** "Stop" always showing this sender's images. */
  readonly onDistrustSender?: (email: string) => void;
  /** A `mailto:` link was followed. */
  readonly onMailto?: (href: string) => void;
  /** Accessible name of the frame. */
  readonly title: string;
  /** "Show the whole message" of a truncated body: resolves once the whole is shown (or failed). */
  readonly onShowWhole?: () => Promise<unknown>;
}

/**
 * Over a body the gateway cut (issue point 14): the first part shows at once, and the
 * whole (tens of megabytes to sanitise and lay out) only when the reader asks.
 */
export function LargeBodyBar(props: { bytes: number; onShowWhole?: () => Promise<unknown> }) {
  const t = useT();
  const locale = useLocale();
  const [loading, setLoading] = useState(false);
  const size = formatFileSize(props.bytes, locale);
  const { onShowWhole } = props;
  return (
    <div className="tern-remote-bar tern-large-body-bar" role="region" aria-label={t('mailHtml.largeMessage')}>
      <span className="tern-remote-text">{t('mailHtml.thisMessageIsLarge', { size })}</span>
      {onShowWhole && (
        <span className="tern-remote-actions">
          <button
            type="button"
            className="tern-link-button"
            aria-busy={loading}
            disabled={loading}
            onClick={() => {
              setLoading(true);
              void onShowWhole().finally(() => setLoading(false));
            }}
          >
            {loading ? t('mailHtml.loadingTheWholeMessage') : t('mailHtml.showWhole', { size })}
          </button>
        </span>
      )}
    </div>
  );
}

export function RemoteContentBar(props: { blocked: number; senderEmail?: string; onAllowMessage: () => void; onAllowSender: (email: string) => void }) {
  const t = useT();
  const { blocked, senderEmail } = props;
  return (
    <div className="tern-remote-bar" role="region" aria-label={t('mailHtml.remoteImagesBlocked')}>
      <Icon name="imageOff" />
      <span className="tern-remote-text">
        {t('mailHtml.remoteImagesHidden', { count: blocked })}
      </span>
      <span className="tern-remote-actions">
        <button type="button" className="tern-link-button" onClick={props.onAllowMessage}>
          {t('mailHtml.showImages')}
        </button>
        {senderEmail && (
          <button type="button" className="tern-link-button" onClick={() => props.onAllowSender(senderEmail)}>
            {t('mailHtml.alwaysShowFrom', { email: senderEmail })}
          </button>
        )}
      </span>
    </div>
  );
}

/** Shown while a sender's images always show: the way back from "Always show from …". */
export function TrustedSenderLine(props: { senderEmail: string; onStop: (email: string) => void }) {
  const t = useT();
  const { senderEmail } = props;
  return (
    <div className="tern-remote-trusted" role="region" aria-label={t('mailHtml.remoteImagesShown')}>
      <span>{t('mailHtml.alwaysShown', { email: senderEmail })}</span>
      <button type="button" className="tern-link-button" aria-label={t('mailHtml.stopLabel', { email: senderEmail })} onClick={() => props.onStop(senderEmail)}>
        {t('mailHtml.stop')}
      </button>
    </div>
  );
}

/**
 * Allowed remote images as image proxy addresses: null while the gateway signs them (the body
 * shows with them blocked meanwhile, never loaded from the sender), 'failed' when it could not.
 */
function useProxiedImages(body: HtmlBody | null, allowRemote: boolean, proxyImages: ProxyImages | undefined): ProxiedImages | null | 'failed' {
  const [images, setImages] = useState<{ body: HtmlBody; images: ProxiedImages | 'failed' } | null>(null);
  useEffect(() => {
    if (!body || !allowRemote || !proxyImages) return;
    let current = true;
    proxiedImagesOf(body, proxyImages).then(
      (signed) => current && setImages({ body, images: signed }),
      () => current && setImages({ body, images: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [body, allowRemote, proxyImages]);
  return images?.body === body && allowRemote ? images.images : null;
}

export function MailBody(props: MailBodyProps) {
  const t = useT();
  const { body, allowRemote, proxyImages } = props;
  const html = body.html !== null && body.html.trim() !== '' ? (body as HtmlBody) : null;
  const images = useProxiedImages(html, allowRemote, proxyImages);
  const signed = allowRemote && images !== 'failed' ? images : null;
  const rendered = useMemo(() => (html ? renderedHtml(html, signed) : null), [html, signed]);
  if (rendered) {
    return (
      <div className="tern-mail-body">
        {body.truncated?.htmlBytes !== undefined && <LargeBodyBar bytes={body.truncated.htmlBytes} onShowWhole={props.onShowWhole} />}
        {images === 'failed' && <p className="tern-remote-bar" role="status">{t('mailHtml.imagesNotLoaded')}</p>}
        {rendered.blockedRemote > 0 && !allowRemote && (
          <RemoteContentBar blocked={rendered.blockedRemote} senderEmail={props.senderEmail} onAllowMessage={props.onAllowMessage} onAllowSender={props.onAllowSender} />
        )}
        {props.senderTrusted && allowRemote && rendered.remote > 0 && props.senderEmail && props.onDistrustSender && (
          <TrustedSenderLine senderEmail={props.senderEmail} onStop={props.onDistrustSender} />
        )}
        {body.html !== null && body.html.length > MAX_SHOWN_HTML_CHARS ? (
          // The whole of a very large body: laid out in another process (IsolatedMailFrame.tsx).
          <IsolatedMailFrame srcdoc={rendered.srcdoc} title={props.title} />
        ) : (
          <MailFrame srcdoc={rendered.srcdoc} title={props.title} onMailto={props.onMailto} plainColours={rendered.plainColours} />
        )}
      </div>
    );
  }
  if (body.text !== null && body.text.trim() !== '') {
    return (
      <div className="tern-mail-body">
        {body.truncated?.textBytes !== undefined && <LargeBodyBar bytes={body.truncated.textBytes} onShowWhole={props.onShowWhole} />}
        <PlainTextBody text={body.text} onMailto={props.onMailto} />
      </div>
    );
  }
  return <p className="tern-mail-empty">{t('mailHtml.thisMessageHasNo')}</p>;
}
