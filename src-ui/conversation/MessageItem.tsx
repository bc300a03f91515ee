/** One message of a conversation: a collapsible header, then its body and attachments. */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { AttachmentSummary } from '../../shared/api/mail';
import { TernError } from '../../shared/errors';
import { showsPaperclip } from '../../shared/attachment-rules';
import type { BodyView, MessageView } from '../../shared/worker-mail-api';
import { AttachmentList } from '../attachments';
import { composeFromMailto, type ComposerInitial } from '../composer/compose-initial';
import { MailBody } from '../mail-html/MailBody';
import { proxiedImagesOf, type HtmlBody, type ProxiedImages } from '../mail-html/rendered-bodies';
import { Avatar } from '../kit/Avatar';
import { Icon } from '../kit/icons';
import { printDocument, printInFrame } from './print-message';
import { formatFullDate, formatMessageDate } from '../kit/date-format';
import { displayName, recipientSummary, senderLine } from './message-format';
import { errorText, useLocale, useT, type Translate } from '../kit/i18n';
import type { ReceiptPolicy } from '../../shared/read-receipts';
import { ReceiptBar } from './ReceiptBar';


/**
 * Why a body is not on screen. With no way to the gateway (offline, or the gateway down)
 * an unopened message is simply not on this device yet: that, not "The operation failed".
 */
function bodyErrorText(t: Translate, error: TernError): string {
  const detail = error.detail as { network?: boolean } | undefined;
  if (detail?.network) return t('device.bodyNotOffline');
  return errorText(t, error);
}

export interface MessageItemProps {
  readonly message: MessageView;
  readonly expanded: boolean;
  readonly onToggle: (messageId: string) => void;
  readonly loadBody: (messageId: string, options?: { whole?: boolean }) => Promise<BodyView>;
  /** The body, when the shell already holds it (shown at once). */
  readonly peekBody?: (messageId: string) => BodyView | undefined;
  readonly loadAttachment: (message: MessageView, attachment: AttachmentSummary) => Promise<Blob>;
  readonly previewAttachment: (message: MessageView, attachment: AttachmentSummary) => Promise<string>;
  /** Signs allowed remote images for the gateway's image proxy; absent, they stay blocked. */
  readonly proxyImages?: (message: MessageView, urls: readonly string[]) => Promise<ProxiedImages>;
  readonly ownAddresses: readonly string[];
  /** The sender is on the remote-images allow-list. */
  readonly senderTrusted: boolean;
  readonly onTrustSender: (email: string) => void;
  /** Takes the sender off the remote-images allow-list. */
  readonly onDistrustSender?: (email: string) => void;
  readonly onCompose: (initial: ComposerInitial) => void;
  /** Reply, reply all or forward this message (the conversation builds the quote). */
  readonly onRespond: (message: MessageView, mode: ResponseMode) => Promise<void>;
  readonly onEditDraft?: (message: MessageView) => void;
  /** "Filter messages like this": a new filter from this message (Settings → Filters). */
  readonly onFilterLike?: (message: MessageView) => void;
  /** "Block sender": mail from this sender goes to Spam from now on (rules on the server). */
  readonly onBlockSender?: (message: MessageView) => void;
  /** "Add to contacts": the sender becomes a card of the account's address book. */
  readonly onAddContact?: (message: MessageView) => void;
  readonly now: number;
  readonly locale?: string;
  /** Read receipts: the account's choice and how to answer (absent: no receipt bar). */
  readonly receipts?: MessageReceipts;
}

/** What a message's receipt bar needs from the shell (ReceiptBar.tsx). */
export interface MessageReceipts {
  readonly policy: (accountId: string) => ReceiptPolicy;
  readonly answer: (message: MessageView, send: boolean) => Promise<void>;
}

export type ResponseMode = 'reply' | 'replyAll' | 'forward';

type BodyState =
  | { readonly state: 'idle' }
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly body: BodyView }
  | { readonly state: 'failed'; readonly message: string };

export function MessageItem(props: MessageItemProps) {
  const t = useT();
  const uiLocale = useLocale();
  const { message, expanded, loadBody, now } = props;
  const locale = props.locale ?? uiLocale;
  const bodyId = useId();
  const [body, setBody] = useState<BodyState>(() => {
    const known = props.peekBody?.(message.id);
    return known ? { state: 'ready', body: known } : { state: 'idle' };
  });
  const [allowThisMessage, setAllowThisMessage] = useState(false);
  const [composing, setComposing] = useState<string | null>(null);
  const sender = message.from[0];
  const senderName = sender ? displayName(sender) : t('conversation.noSender');

  const fetchBody = useCallback(() => {
    setBody({ state: 'loading' });
    loadBody(message.id).then(
      (loaded) => setBody({ state: 'ready', body: loaded }),
      (cause: unknown) => setBody({ state: 'failed', message: bodyErrorText(t, TernError.from(cause)) }),
    );
  }, [loadBody, message.id]);

  // "Show the whole message" of a very large HTML body: its first part stays until the whole arrives.
  const showWhole = useCallback(
    () =>
      loadBody(message.id, { whole: true }).then(
        (loaded) => setBody({ state: 'ready', body: loaded }),
        (cause: unknown) => setBody({ state: 'failed', message: bodyErrorText(t, TernError.from(cause)) }),
      ),
    [loadBody, message.id],
  );

  // Bodies load on first expand and stay for later expands.
  useEffect(() => {
    if (expanded && body.state === 'idle') fetchBody();
  }, [expanded, body.state, fetchBody]);

  const compose = async (mode: ResponseMode) => {
    setComposing(mode);
    try {
      await props.onRespond(message, mode);
    } finally {
      setComposing(null);
    }
  };

  const { proxyImages: proxyFor } = props;
  const proxyImages = useMemo(() => (proxyFor ? (urls: readonly string[]) => proxyFor(message, urls) : undefined), [proxyFor, message]);

  /** Print: the body shown (loaded first if need be), remote images as the reading view has them. */
  const [printing, setPrinting] = useState(false);
  const print = async () => {
    setPrinting(true);
    try {
      const shown = body.state === 'ready' ? body.body : await loadBody(message.id);
      const allowed = (allowThisMessage || props.senderTrusted) && shown.html !== null && proxyImages !== undefined;
      const proxiedImages = allowed ? await proxiedImagesOf(shown as HtmlBody, proxyImages).catch(() => null) : null;
      printInFrame(printDocument(message, shown, { proxiedImages, t, ...(locale ? { locale } : {}) }), t('conversation.print'));
    } catch (cause) {
      setBody({ state: 'failed', message: bodyErrorText(t, TernError.from(cause)) });
    } finally {
      setPrinting(false);
    }
  };

  const loadPart = useCallback((attachment: AttachmentSummary) => props.loadAttachment(message, attachment), [props.loadAttachment, message]);
  const previewPart = useCallback((attachment: AttachmentSummary) => props.previewAttachment(message, attachment), [props.previewAttachment, message]);
  const hasClip = message.attachments.some(showsPaperclip);
  const shortDate = formatMessageDate(message.date, now, locale);
  const fullDate = formatFullDate(message.date, locale);

  return (
    <article className={`tern-message${expanded ? ' is-expanded' : ''}${message.unread ? ' is-unread' : ''}`} aria-label={t('conversation.messageFromAt', { name: senderName, date: shortDate })}>
      <div className="tern-message-header">
        <button type="button" className="tern-message-toggle" aria-expanded={expanded} aria-controls={bodyId} onClick={() => props.onToggle(message.id)}>
          <Avatar name={sender?.name ?? ''} email={sender?.email ?? ''} size={36} />
          <span className="tern-message-who">
            <span className="tern-message-from" title={sender ? senderLine(sender) : undefined}>
              <span className="tern-message-name">{senderName}</span>
              {expanded && sender && sender.name.trim() && <span className="tern-message-email">&lt;{sender.email}&gt;</span>}
              {message.draft && <span className="tern-badge tern-badge-draft">{t('conversation.draft')}</span>}
              {message.unread && <span className="tern-unread-dot" aria-label={t('conversation.unread')} role="img" />}
            </span>
            <span className="tern-message-sub">{expanded ? recipientSummary(message.to, message.cc, props.ownAddresses, uiLocale) : message.snippet}</span>
          </span>
          <span className="tern-message-date">
            {hasClip && <Icon name="paperclip" size={14} />}
            <time dateTime={new Date(message.date).toISOString()} title={fullDate}>
              {shortDate}
            </time>
          </span>
        </button>
        {expanded && (
          <span className="tern-message-actions" role="toolbar" aria-label={t('conversation.actionsFor', { name: senderName })}>
            {message.draft && props.onEditDraft ? (
              <button type="button" className="tern-button" onClick={() => props.onEditDraft?.(message)}>
                {t('conversation.editDraft')}
              </button>
            ) : (
              <>
                <button type="button" className="tern-icon-button" aria-label={t('conversation.reply')} title={t('conversation.reply')} disabled={composing !== null} onClick={() => void compose('reply')}>
                  <Icon name="reply" />
                </button>
                <button type="button" className="tern-icon-button" aria-label={t('conversation.replyAll')} title={t('conversation.replyAll')} disabled={composing !== null} onClick={() => void compose('replyAll')}>
                  <Icon name="replyAll" />
                </button>
                <button type="button" className="tern-icon-button" aria-label={t('conversation.forward')} title={t('conversation.forward')} disabled={composing !== null} onClick={() => void compose('forward')}>
                  <Icon name="forward" />
                </button>
              </>
            )}
            <button type="button" className="tern-icon-button" aria-label={t('conversation.print')} title={t('conversation.printThisMessage')} disabled={printing} onClick={() => void print()}>
              <Icon name="print" />
            </button>
            {!message.draft && props.onFilterLike && (
              <button type="button" className="tern-icon-button" aria-label={t('rules.filterLikeThis')} title={t('rules.filterLikeThis')} onClick={() => props.onFilterLike?.(message)}>
                <Icon name="list" />
              </button>
            )}
            {!message.draft && props.onAddContact && sender && !props.ownAddresses.includes(sender.email.toLowerCase()) && (
              <button type="button" className="tern-icon-button" aria-label={t('contacts.addToContacts')} title={t('contacts.addToContacts')} onClick={() => props.onAddContact?.(message)}>
                <Icon name="contacts" />
              </button>
            )}
            {!message.draft && props.onBlockSender && sender && !props.ownAddresses.includes(sender.email.toLowerCase()) && (
              <button type="button" className="tern-icon-button" aria-label={t('rules.blockSender')} title={t('rules.blockSender')} onClick={() => props.onBlockSender?.(message)}>
                <Icon name="spam" />
              </button>
            )}
          </span>
        )}
      </div>
      <div id={bodyId} className="tern-message-content" hidden={!expanded}>
        {expanded && body.state === 'loading' && (
          <div className="tern-body-loading" role="status" aria-label={t('conversation.loadingMessage')}>
            <span className="tern-skeleton" />
            <span className="tern-skeleton" />
            <span className="tern-skeleton tern-skeleton-short" />
          </div>
        )}
        {expanded && body.state === 'failed' && (
          <div className="tern-body-error" role="alert">
            {t('conversation.theMessageCouldNot')} {body.message}{' '}
            <button type="button" className="tern-link-button" onClick={fetchBody}>
              {t('conversation.tryAgain')}
            </button>
          </div>
        )}
        {expanded && body.state === 'ready' && props.receipts && body.body.receipt && body.body.receipt.refusal === null && props.receipts.policy(message.accountId) === 'ask' && (
          <ReceiptBar receipt={body.body.receipt} senderEmail={sender?.email} onAnswer={(send) => props.receipts!.answer(message, send)} />
        )}
        {expanded && body.state === 'ready' && (
          <MailBody
            body={body.body}
            allowRemote={allowThisMessage || props.senderTrusted}
            proxyImages={proxyImages}
            senderEmail={sender?.email}
            onAllowMessage={() => setAllowThisMessage(true)}
            onAllowSender={(email) => {
              setAllowThisMessage(true);
              props.onTrustSender(email.toLowerCase());
            }}
            senderTrusted={props.senderTrusted}
            onDistrustSender={
              props.onDistrustSender &&
              ((email) => {
                // Stopped: this message's images hide again too, and the bar offers them back.
                setAllowThisMessage(false);
                props.onDistrustSender?.(email.toLowerCase());
              })
            }
            onMailto={(href) => props.onCompose(composeFromMailto(href, message.accountId))}
            onShowWhole={showWhole}
            title={t('conversation.messageFrom', { name: senderName })}
          />
        )}
        {expanded && <AttachmentList attachments={message.attachments} load={loadPart} preview={previewPart} />}
      </div>
    </article>
  );
}
