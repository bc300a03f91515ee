/**
 * A conversation: its messages oldest to newest, each collapsible; the newest and the
 * unread ones open. Data and actions come in as props (the shell wires them to the
 * engine through src-ui/state); this view keeps only what is on screen.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AttachmentSummary } from '../../shared/api/mail';
import { addressKey } from '../../shared/address-equivalence';
import type { BodyView, MessageView, ThreadView } from '../../shared/worker-mail-api';
import { TernError } from '../../shared/errors';
import { composeFromMessage, type ComposerInitial } from '../composer/compose-initial';
import { Icon } from '../kit/icons';
import { isReceiptMessage } from '../../shared/read-receipts';
import { formatFullTime } from '../kit/date-format';
import { initiallyExpanded } from './message-format';
import { MessageItem, type MessageReceipts, type ResponseMode } from './MessageItem';
import { CONVERSATION_CSS } from './conversation-styles';
import { useLocale, useT } from '../kit/i18n';

export interface ConversationViewProps {
  /** The thread to show (from MailQueryService.getThread); messages oldest first. */
  readonly thread: ThreadView;
  /** Which account and folder the thread is in ("in alice@tern.test · Inbox"); null with one account signed in. */
  readonly place?: string | null;
  /** A message's body (MailQueryService.getBody); called on first expand. */
  /** `whole`: a very large HTML body in full (BodyView.truncated), on the reader's demand. */
  readonly loadBody: (messageId: string, options?: { whole?: boolean }) => Promise<BodyView>;
  /** A body the shell already holds, if any: shown in the first render, without a round trip. */
  readonly peekBody?: (messageId: string) => BodyView | undefined;
  /** An attachment's bytes, for preview, download and forwarding. */
  readonly loadAttachment: (message: MessageView, attachment: AttachmentSummary) => Promise<Blob>;
  /** A sandboxed gateway address showing one attachment (AttachmentList's previews). */
  readonly previewAttachment: (message: MessageView, attachment: AttachmentSummary) => Promise<string>;
  /** Signs allowed remote images for the gateway's image proxy; absent, they stay blocked. */
  readonly proxyImages?: (message: MessageView, urls: readonly string[]) => Promise<Readonly<Record<string, string>>>;
  /** Read receipts: the account's choice and how to answer (absent: no receipt bar). */
  readonly receipts?: MessageReceipts;
  /** The user's own addresses (every account and alias): shown as "me", left out of reply-all. */
  readonly ownAddresses: readonly string[];
  /** Senders whose remote images always show (the persisted allow-list). */
  readonly trustedSenders: readonly string[];
  /** "Always show images from this sender": the shell persists the address. */
  readonly onTrustSender: (email: string) => void;
  /** "Stop" on the line saying a sender's images always show. */
  readonly onDistrustSender?: (email: string) => void;
  /** "Filter messages like this" on a message. */
  readonly onFilterLike?: (message: MessageView) => void;
  /** "Block sender" on a message. */
  readonly onBlockSender?: (message: MessageView) => void;
  readonly onAddContact?: (message: MessageView) => void;
  /** Opens the composer with a reply, reply-all, forward or `mailto:` link. */
  readonly onCompose: (initial: ComposerInitial) => void;
  /** An unread message was opened (the shell marks it read). */
  readonly onMessageOpened?: (message: MessageView) => void;
  /** A draft in the thread should open in the composer. */
  readonly onEditDraft?: (message: MessageView) => void;
  /** Clock for relative dates (tests); defaults to now. */
  readonly now?: number;
  /** Date language; defaults to the browser's. */
  readonly locale?: string;
}

/** Threads this long fold their middle into one "N older messages" row, as the big webmails do. */
const FOLD_FROM = 5;

/**
 * Memoised: the reading pane re-renders with the list (its row's state), and an unchanged
 * thread must not re-render every message with it.
 */
export const ConversationView = memo(function ConversationView(props: ConversationViewProps) {
  const t = useT();
  const { thread } = props;
  const messages = thread.messages;
  const [expanded, setExpanded] = useState<Set<string>>(() => initiallyExpanded(messages));
  const [unfolded, setUnfolded] = useState(false);
  const reported = useRef(new Set<string>());
  const now = props.now ?? Date.now();

  // A different thread starts over; new messages in the same thread open when unread or newest.
  const threadKey = thread.row.key;
  const lastThreadKey = useRef(threadKey);
  useEffect(() => {
    if (lastThreadKey.current !== threadKey) {
      lastThreadKey.current = threadKey;
      setExpanded(initiallyExpanded(messages));
      setUnfolded(false);
      reported.current = new Set();
      return;
    }
    setExpanded((current) => {
      const newest = messages.at(-1);
      if (!newest || current.has(newest.id)) return current;
      const next = new Set(current);
      next.add(newest.id);
      return next;
    });
  }, [threadKey, messages]);

  useEffect(() => {
    for (const message of messages) {
      if (message.unread && expanded.has(message.id) && !reported.current.has(message.id)) {
        reported.current.add(message.id);
        props.onMessageOpened?.(message);
      }
    }
  }, [expanded, messages, props.onMessageOpened]);

  const trusted = useMemo(() => new Set(props.trustedSenders.map(addressKey)), [props.trustedSenders]);

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allExpanded = messages.every((message) => expanded.has(message.id));

  // Which messages hide behind the fold: collapsed ones between the first and the last two.
  const folded = useMemo(() => {
    if (unfolded || messages.length < FOLD_FROM) return new Set<string>();
    const hidden = new Set<string>();
    for (let i = 1; i < messages.length - 2; i++) {
      const message = messages[i] as MessageView;
      if (!expanded.has(message.id)) hidden.add(message.id);
    }
    return hidden.size >= 2 ? hidden : new Set<string>();
  }, [messages, expanded, unfolded]);

  // One body request per message, shared by the message view and the reply builder.
  const uiLocale = useLocale();
  const { loadBody, loadAttachment, onCompose, ownAddresses } = props;
  const locale = props.locale ?? uiLocale;
  const cachedLoadBody = useMemo(() => {
    const cache = new Map<string, Promise<BodyView>>();
    return (messageId: string, options?: { whole?: boolean }) => {
      let pending = options?.whole ? undefined : cache.get(messageId);
      if (!pending) {
        pending = options?.whole ? loadBody(messageId, { whole: true }) : loadBody(messageId);
        cache.set(messageId, pending);
        pending.catch(() => cache.delete(messageId)); // a failure may be retried
      }
      return pending;
    };
  }, [loadBody]);

  const respond = useCallback(
    async (message: MessageView, mode: ResponseMode) => {
      let body = await cachedLoadBody(message.id).catch(() => null);
      // A forward carries the whole message, not the first part of a very large one (a
      // reply's quote may stay short): nothing of it is lost on the way.
      if (mode === 'forward' && body?.truncated) body = await cachedLoadBody(message.id, { whole: true }).catch(() => body);
      onCompose(
        composeFromMessage({
          mode,
          message,
          body,
          ownAddresses,
          locale,
          loadAttachment: (index) => {
            const part = (body?.attachments ?? message.attachments).find((attachment) => attachment.index === index);
            return part ? loadAttachment(message, part) : Promise.reject(new TernError('FileNotFound'));
          },
        }),
      );
    },
    [cachedLoadBody, onCompose, ownAddresses, locale, loadAttachment],
  );

  const newestSent = [...messages].reverse().find((message) => !message.draft) ?? messages.at(-1);
  const [footerBusy, setFooterBusy] = useState(false);
  const replyTo = (mode: ResponseMode) => {
    if (!newestSent || footerBusy) return;
    setFooterBusy(true);
    respond(newestSent, mode).finally(() => setFooterBusy(false));
  };

  let foldShown = false;
  return (
    <section className="tern-conversation" aria-label={t('conversation.conversationLabel', { subject: thread.row.subject || t('conversation.noSubject') })}>
      <style href="tern-conversation" precedence="tern">
        {CONVERSATION_CSS}
      </style>
      <header className="tern-conversation-header">
        <div className="tern-conversation-heading">
          <h2 className="tern-conversation-subject">{thread.row.subject || t('conversation.noSubject')}</h2>
          {props.place && <p className="tern-conversation-place">{props.place}</p>}
        </div>
        <div className="tern-conversation-tools">
          <span className="tern-conversation-count">
            {t('conversation.messageCount', { count: messages.length })}
          </span>
          {messages.length > 1 && (
            <button
              type="button"
              className="tern-link-button"
              onClick={() => {
                setUnfolded(true);
                setExpanded(allExpanded ? new Set(messages.at(-1) ? [(messages.at(-1) as MessageView).id] : []) : new Set(messages.map((message) => message.id)));
              }}
            >
              {allExpanded ? t('conversation.collapseAll') : t('conversation.expandAll')}
            </button>
          )}
        </div>
      </header>
      <ol className="tern-message-list">
        {messages.map((message) => {
          // A read receipt (RFC 8098) is a line under what it answers, not a message to open.
          if (isReceiptMessage(message)) {
            return (
              <li key={message.id} data-message-id={message.id} className="tern-receipt-line">
                <Icon name="doubleCheck" size={16} /> {t('writing.readBy', { name: message.from[0]?.name || message.from[0]?.email || '', time: formatFullTime(message.date, locale) })}
              </li>
            );
          }
          if (folded.has(message.id)) {
            if (foldShown) return null;
            foldShown = true;
            return (
              <li key={`fold-${message.id}`} className="tern-fold">
                <button type="button" className="tern-fold-button" onClick={() => setUnfolded(true)}>
                  <span className="tern-fold-count">{folded.size.toLocaleString(locale)}</span> {t('conversation.olderMessages', { count: folded.size })}
                </button>
              </li>
            );
          }
          return (
            <li key={message.id} data-message-id={message.id}>
              <MessageItem
                message={message}
                expanded={expanded.has(message.id)}
                onToggle={toggle}
                loadBody={cachedLoadBody}
                peekBody={props.peekBody}
                loadAttachment={props.loadAttachment}
                previewAttachment={props.previewAttachment}
                proxyImages={props.proxyImages}
                ownAddresses={props.ownAddresses}
                senderTrusted={message.from.some((address) => trusted.has(addressKey(address.email)))}
                onTrustSender={props.onTrustSender}
                onDistrustSender={props.onDistrustSender}
                {...(props.onFilterLike ? { onFilterLike: props.onFilterLike } : {})}
                {...(props.onBlockSender ? { onBlockSender: props.onBlockSender } : {})}
                {...(props.onAddContact ? { onAddContact: props.onAddContact } : {})}
                onCompose={props.onCompose}
                onRespond={respond}
                onEditDraft={props.onEditDraft}
                now={now}
                locale={locale}
                {...(props.receipts ? { receipts: props.receipts } : {})}
              />
            </li>
          );
        })}
      </ol>
      {newestSent && (
        <footer className="tern-conversation-footer">
          <button type="button" className="tern-button" disabled={footerBusy} onClick={() => replyTo('reply')}>
            <Icon name="reply" /> {t('conversation.reply')}
          </button>
          <button type="button" className="tern-button" disabled={footerBusy} onClick={() => replyTo('replyAll')}>
            <Icon name="replyAll" /> {t('conversation.replyAll')}
          </button>
          <button type="button" className="tern-button" disabled={footerBusy} onClick={() => replyTo('forward')}>
            <Icon name="forward" /> {t('conversation.forward')}
          </button>
        </footer>
      )}
    </section>
  );
});

export default ConversationView;
