/**
 * Where an open thread shows (beside, below or instead of the list, as the view says).
 * It loads the thread through the command functions, marks it read, and hands it to the
 * conversation view (src-ui/conversation, loaded lazily), wiring its callbacks to the
 * command functions. While that chunk loads, a plain summary of the messages stands in.
 */
import { useAtomValue, useStore } from 'jotai';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { TernError } from '../../shared/errors';
import type { AttachmentSummary } from '../../shared/api/mail';
import type { MessageView, ThreadView } from '../../shared/worker-mail-api';
import { dispatchMailEvent, MAIL_EVENTS } from '../keyboard/mail-events';
import { useMailActions } from '../state/actions-context';
import { ownEmailsByAccountAtom, threadListAtom, trustedSendersAtom } from '../state/atoms';
import { indexOfKey, rowAt } from '../thread-list/list-patch';
import { formatFullTime } from '../thread-list/row-format';
import { Avatar } from './Avatar';
import { Icon } from './icons';
import { parseRowKey } from './list-scope';

const ConversationView = lazy(() => import('../conversation'));

type Loaded = { readonly key: string; readonly thread: ThreadView | null; readonly error: string | null };

function ThreadSummary({ thread }: { thread: ThreadView }) {
  const ownEmails = useAtomValue(ownEmailsByAccountAtom).get(thread.row.accountId) ?? new Set<string>();
  const detail = { accountId: thread.row.accountId, threadId: thread.row.threadId };
  return (
    <article className="conversation" aria-labelledby="conversation-subject">
      <header className="conversation-header">
        <h2 id="conversation-subject" className="conversation-subject">
          {thread.row.subject || '(no subject)'}
        </h2>
        <div className="conversation-actions">
          <button type="button" className="button button-secondary" aria-keyshortcuts="r" onClick={() => dispatchMailEvent(MAIL_EVENTS.reply, detail)}>
            Reply
          </button>
          <button type="button" className="button button-secondary" aria-keyshortcuts="a" onClick={() => dispatchMailEvent(MAIL_EVENTS.replyAll, detail)}>
            Reply all
          </button>
          <button type="button" className="button button-secondary" aria-keyshortcuts="f" onClick={() => dispatchMailEvent(MAIL_EVENTS.forward, detail)}>
            Forward
          </button>
        </div>
      </header>
      <ol className="conversation-messages">
        {thread.messages.map((message) => {
          const from = message.from[0];
          const mine = from ? ownEmails.has(from.email.toLowerCase()) : false;
          return (
            <li key={message.id} className={message.unread ? 'message-card is-unread' : 'message-card'}>
              <Avatar name={from?.name ?? ''} email={from?.email ?? '?'} size={36} />
              <div className="message-card-main">
                <div className="message-card-head">
                  <span className="message-card-from">
                    {mine ? 'me' : from?.name || from?.email || '(no sender)'}
                    {from && !mine && from.name && <span className="message-card-email"> &lt;{from.email}&gt;</span>}
                  </span>
                  <time className="message-card-date" dateTime={new Date(message.date).toISOString()}>
                    {formatFullTime(message.date)}
                  </time>
                </div>
                <div className="message-card-to">to {message.to.map((to) => (ownEmails.has(to.email.toLowerCase()) ? 'me' : to.name || to.email)).join(', ') || '(no recipients)'}</div>
                <p className="message-card-snippet">{message.snippet}</p>
                {message.attachments.length > 0 && (
                  <p className="message-card-attachments">
                    <Icon name="paperclip" size={14} /> {message.attachments.map((attachment) => attachment.filename).join(', ')}
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </article>
  );
}

export function ReadingPane({ threadKey, onClose, showBack }: { threadKey: string | null; onClose: () => void; showBack: boolean }) {
  const actions = useMailActions();
  const store = useStore();
  const list = useAtomValue(threadListAtom);
  const row = threadKey ? rowAt(list.held, indexOfKey(list.held, threadKey)) : undefined;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const markedRead = useRef<string | null>(null);

  // Load the thread, and again when its row changes (a new message, a flag from another tab).
  const version = row ? `${row.messageCount}:${row.unreadCount}:${row.starred}:${row.lastMessageAt}:${row.folderIds.join(',')}` : '';
  useEffect(() => {
    const ref = threadKey ? parseRowKey(threadKey) : null;
    if (!threadKey || !ref) return;
    let live = true;
    actions.loadThread(ref).then(
      (thread) => live && setLoaded({ key: threadKey, thread, error: null }),
      (error: unknown) => live && setLoaded({ key: threadKey, thread: null, error: TernError.from(error).message }),
    );
    return () => {
      live = false;
    };
  }, [threadKey, version, actions]);

  /**
   * Reads the open thread once per opening: when it opens (or its row first arrives). An
   * opening is used up even when the thread was already read, so a thread marked unread
   * while it is open (Shift+U here, or from another tab) stays unread; it used to be read
   * again at once, because only an opening that had read something counted.
   */
  const readOnOpen = useCallback(() => {
    if (!threadKey || markedRead.current === threadKey) return;
    const held = store.get(threadListAtom).held;
    const current = rowAt(held, indexOfKey(held, threadKey));
    if (!current) return;
    markedRead.current = threadKey;
    if (current.unreadCount === 0) return;
    void actions.runOnThreads({ kind: 'markRead', read: true }, [{ key: current.key, accountId: current.accountId, threadId: current.threadId }]);
  }, [threadKey, actions, store]);
  useEffect(() => {
    if (!threadKey) markedRead.current = null;
    else readOnOpen();
  }, [threadKey, row?.unreadCount, readOnOpen]);

  // The messages the opening showed first: a message the view reports unread that is not one
  // of them arrived while the thread was open, and is read because it is on screen.
  const firstShown = useRef<{ key: string; ids: ReadonlySet<string> } | null>(null);
  if (loaded?.thread && loaded.key === threadKey && firstShown.current?.key !== threadKey) {
    firstShown.current = { key: threadKey, ids: new Set(loaded.thread.messages.map((message) => message.id)) };
  }
  const onMessageOpened = useCallback(
    (message: MessageView) => {
      if (!threadKey) return;
      if (firstShown.current?.key === threadKey && !firstShown.current.ids.has(message.id) && message.unread) {
        const ref = parseRowKey(threadKey);
        if (ref) void actions.runOnThreads({ kind: 'markRead', read: true }, [{ key: threadKey, ...ref }]);
        return;
      }
      readOnOpen();
    },
    [threadKey, actions, readOnOpen],
  );

  const trustedSenders = useAtomValue(trustedSendersAtom);
  const accountId = loaded?.thread?.row.accountId;
  // "Me" is the thread's own account (and its aliases), not every account logged in: with
  // alice@ and bob@ both signed in, Alice's reply to Bob went back to Alice (Bob's address
  // counted as her own, so his message looked "sent by me"), and her mail to Bob read "to me".
  const ownEmails = useAtomValue(ownEmailsByAccountAtom).get(accountId ?? '');
  const ownAddresses = useMemo(() => [...(ownEmails ?? [])], [ownEmails]);
  const loadBody = useCallback((messageId: string) => actions.loadBody({ accountId: accountId ?? '', messageId }), [actions, accountId]);
  const loadAttachment = useCallback(
    (message: MessageView, attachment: AttachmentSummary) => actions.loadAttachment({ accountId: message.accountId, messageId: message.id, index: attachment.index }),
    [actions],
  );
  const onEditDraft = useCallback(
    (message: MessageView) => {
      actions.loadBody({ accountId: message.accountId, messageId: message.id }).then(
        (body) =>
          actions.openComposer({
            mode: 'new',
            accountId: message.accountId,
            draftId: message.id,
            to: message.to,
            cc: message.cc,
            bcc: [],
            subject: message.subject,
            html: body.html ?? '',
          }),
        (error: unknown) => actions.toast({ tone: 'error', title: 'Could not open the draft', message: TernError.from(error).message }),
      );
    },
    [actions],
  );

  if (!threadKey) {
    return (
      <section className="reading-pane reading-pane-empty" aria-label="Reading pane">
        <Icon name="mail" size={48} className="empty-state-icon" />
        <p className="empty-state-title">No conversation selected</p>
        <p className="empty-state-text">
          Pick one from the list, or press <kbd>j</kbd> and <kbd>k</kbd> to move and <kbd>Enter</kbd> to open.
        </p>
      </section>
    );
  }
  const current = loaded?.key === threadKey ? loaded : null;
  return (
    <section className="reading-pane" aria-label="Conversation" aria-busy={!current}>
      <div className="reading-pane-bar">
        <button type="button" className="icon-button" aria-label={showBack ? 'Back to the list' : 'Close conversation'} title="Back (u)" aria-keyshortcuts="u" onClick={onClose}>
          <Icon name={showBack ? 'arrowLeft' : 'close'} size={18} />
        </button>
      </div>
      <div className="reading-pane-scroll">
        {!current && <div className="reading-pane-loading" role="status">Loading conversation…</div>}
        {current?.error && (
          <div className="reading-pane-error" role="alert">
            {current.error}
          </div>
        )}
        {current?.thread && (
          <Suspense fallback={<ThreadSummary thread={current.thread} />}>
            <ConversationView
              thread={current.thread}
              loadBody={loadBody}
              loadAttachment={loadAttachment}
              ownAddresses={ownAddresses}
              trustedSenders={trustedSenders}
              onTrustSender={actions.trustSender}
              onCompose={actions.openComposer}
              onMessageOpened={onMessageOpened}
              onEditDraft={onEditDraft}
            />
          </Suspense>
        )}
      </div>
    </section>
  );
}
