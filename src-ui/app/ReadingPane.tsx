/**
 * Where an open thread shows (beside, below or instead of the list, as the view says).
 * It opens the thread through the command functions — the engine then pushes it again
 * whenever it changes (openThreadAtom), so the pane never re-reads it — marks it read, and hands it to the
 * conversation view (src-ui/conversation, loaded lazily), wiring its callbacks to the
 * command functions. While that chunk loads, a plain summary of the messages stands in.
 */
import { useNavigate } from '@tanstack/react-router';
import { atom, useAtomValue, useStore } from 'jotai';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef } from 'react';
import { TernError } from '../../shared/errors';
import type { AttachmentSummary } from '../../shared/api/mail';
import { withoutBidiControls } from '../../shared/bidi-controls';
import type { PublicAccount } from '../../shared/account';
import type { BodyView, FolderView, MessageView, ThreadRow, ThreadView } from '../../shared/worker-mail-api';
import { RecentCache } from '../conversation/recent-cache';
import type { MessageReceipts } from '../conversation/MessageItem';
import { accountSettingsAtom } from '../state/settings-atoms';
import { DEFAULT_PREFERENCES } from '../../shared/preferences';
import { dispatchMailEvent, MAIL_EVENTS } from '../kit/mail-events';
import { useMailActions } from '../state/actions-context';
import type { MailActions } from '../state/mail-actions';
import { accountsAtom, foldersAtom, openThreadAtom, ownEmailsByAccountAtom, trustedSendersAtom, visibleListAtom } from '../state/atoms';
import { folderDisplayName } from '../state/folder-order';
import { indexOfKey, rowAt } from '../state/thread-list/list-patch';
import { formatFullTime } from '../kit/date-format';
import { Avatar } from '../kit/Avatar';
import { EmptyPane } from './EmptyPane';
import { Icon } from '../kit/icons';
import { parseRowKey } from '../state/thread-list/row-key';
import { filterPrefillAtom, filterPrefillOf } from '../state/rules-prefill';
import { editDraft } from './open-draft';
import { PartBoundary } from './RouteError';
import type { Locale } from '../../shared/locales';
import { format } from '../../shared/strings';
import { useLocale, useT } from '../kit/i18n';

const ConversationView = lazy(() => import('../conversation'));
/** Snooze, Remind me, Follow up and the thread's times (issue 15): their own chunk, like the conversation. */
const ThreadTimers = lazy(() => import('../timers/ThreadTimers'));

type Loaded = { readonly key: string; readonly thread: ThreadView | null; readonly error: string | null };

/** What of a row, when it changes, means a thread kept in the cache below is not the thread now (a new message, a flag, a move). */
const rowVersion = (row: ThreadRow | undefined) => (row ? `${row.messageCount}:${row.unreadCount}:${row.starred}:${row.lastMessageAt}:${row.folderIds.join(',')}` : '');

/**
 * Threads and bodies opened lately, per app (its command functions): going back to a
 * conversation shows it at once, without two worker round trips before the body paints.
 * A thread is reused only while its row's version is the same; a body is immutable,
 * except a draft's (not kept).
 */
interface ReadingCache {
  readonly threads: RecentCache<{ readonly version: string; readonly thread: ThreadView }>;
  readonly bodies: RecentCache<BodyView>;
}
const readingCaches = new WeakMap<MailActions, ReadingCache>();
function readingCacheOf(actions: MailActions): ReadingCache {
  let cache = readingCaches.get(actions);
  if (!cache) {
    cache = { threads: new RecentCache(20), bodies: new RecentCache(60) };
    readingCaches.set(actions, cache);
  }
  return cache;
}

/**
 * "in alice@tern.test · Inbox": which account (and folder) an open thread belongs to, said
 * only when more than one account is signed in (a unified list mixes them). The folder is
 * the inbox when the thread has mail there, else the first of its folders the account lists.
 */
export function threadPlace(row: Pick<ThreadRow, 'accountId' | 'folderIds'>, accounts: readonly PublicAccount[], folders: Readonly<Record<string, readonly FolderView[]>>, locale: Locale = 'en'): string | null {
  if (accounts.length < 2) return null;
  const account = accounts.find((candidate) => candidate.accountId === row.accountId);
  if (!account) return null;
  const listed = (folders[row.accountId] ?? []).filter((folder) => row.folderIds.includes(folder.id));
  const folder = listed.find((candidate) => candidate.specialUse === 'inbox') ?? listed[0];
  const separator = account.mailProperties.folderSeparator || '/';
  const where = format(locale, 'threadList.inAccount', { account: account.emailAddress });
  return folder ? `${where} · ${folderDisplayName(folder, separator, locale)}` : where;
}

function ThreadSummary({ thread }: { thread: ThreadView }) {
  const t = useT();
  const ownEmails = useAtomValue(ownEmailsByAccountAtom).get(thread.row.accountId) ?? new Set<string>();
  const detail = { accountId: thread.row.accountId, threadId: thread.row.threadId };
  return (
    <article className="conversation" aria-labelledby="conversation-subject">
      <header className="conversation-header">
        <h2 id="conversation-subject" className="conversation-subject">
          {thread.row.subject || t('conversation.noSubject')}
        </h2>
        <div className="conversation-actions">
          <button type="button" className="button button-secondary" aria-keyshortcuts="r" onClick={() => dispatchMailEvent(MAIL_EVENTS.reply, detail)}>
            {t('conversation.reply')}
          </button>
          <button type="button" className="button button-secondary" aria-keyshortcuts="a" onClick={() => dispatchMailEvent(MAIL_EVENTS.replyAll, detail)}>
            {t('conversation.replyAll')}
          </button>
          <button type="button" className="button button-secondary" aria-keyshortcuts="f" onClick={() => dispatchMailEvent(MAIL_EVENTS.forward, detail)}>
            {t('conversation.forward')}
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
                    {mine ? t('conversation.me') : from?.name || from?.email || t('conversation.noSender')}
                    {from && !mine && from.name && <span className="message-card-email"> &lt;{from.email}&gt;</span>}
                  </span>
                  <time className="message-card-date" dateTime={new Date(message.date).toISOString()}>
                    {formatFullTime(message.date)}
                  </time>
                </div>
                <div className="message-card-to">{t('app.toNames', { names: message.to.map((to) => (ownEmails.has(to.email.toLowerCase()) ? t('conversation.me') : to.name || to.email)).join(', ') || t('app.noRecipients') })}</div>
                <p className="message-card-snippet">{message.snippet}</p>
                {message.attachments.length > 0 && (
                  <p className="message-card-attachments">
                    <Icon name="paperclip" size={14} /> <bdi>{message.attachments.map((attachment) => withoutBidiControls(attachment.filename)).join(', ')}</bdi>
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

export function ReadingPane({ threadKey, onClose, showBack }: { threadKey: string | null; onClose: (reason?: 'gone') => void; showBack: boolean }) {
  const t = useT();
  const locale = useLocale();
  const actions = useMailActions();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const onGone = useCallback(() => closeRef.current('gone'), []);
  const store = useStore();
  const navigate = useNavigate();
  const cache = readingCacheOf(actions);
  // Only this thread's row, as a version string: other rows changing re-render nothing here.
  const versionAtom = useMemo(
    () =>
      atom((get) => {
        const held = get(visibleListAtom).held;
        return threadKey ? rowVersion(rowAt(held, indexOfKey(held, threadKey))) : '';
      }),
    [threadKey],
  );
  const version = useAtomValue(versionAtom);
  const markedRead = useRef<string | null>(null);

  // Watch the thread while it is open: the engine pushes it when anything of it changes
  // (a new message, a flag from another tab), whether it was opened from a list, a link or a search.
  useEffect(() => {
    const ref = threadKey ? parseRowKey(threadKey) : null;
    actions.openThread(threadKey && ref ? { key: threadKey, ...ref } : null);
  }, [threadKey, actions]);
  useEffect(() => () => actions.openThread(null), [actions]);
  const opened = useAtomValue(openThreadAtom);
  const live = threadKey && opened?.key === threadKey ? opened : null;

  const cached = threadKey && version ? cache.threads.get(threadKey) : undefined;
  const fromCache = cached && cached.version === version ? cached.thread : null;
  // What the pane shows: the engine's thread, else this version from the cache while it
  // answers, else the last thread shown for this key.
  const lastShown = useRef<Loaded | null>(null);
  const current: Loaded | null = !threadKey
    ? null
    : live?.thread
      ? { key: threadKey, thread: live.thread, error: null }
      : fromCache
        ? { key: threadKey, thread: fromCache, error: null }
        : lastShown.current?.key === threadKey
          ? lastShown.current
          : live?.error
            ? { key: threadKey, thread: null, error: live.error.message }
            : null;
  if (current?.thread) lastShown.current = current;
  useEffect(() => {
    if (threadKey && version && live?.thread) cache.threads.set(threadKey, { version, thread: live.thread });
  }, [threadKey, version, live?.thread, cache]);

  // A thread shown and then gone (its draft sent, deleted forever here or in another tab):
  // the pane closes quietly, as the thread's row has left the list too. Only a thread never
  // shown (a stale link) says it could not be found.
  const shownBefore = lastShown.current?.key === threadKey;
  const goneNow = Boolean(live?.gone || (live?.error && TernError.from(live.error).name === 'ThreadNotFound' && shownBefore));
  useEffect(() => {
    if (goneNow) onGone();
  }, [goneNow, onGone]);

  /**
   * Reads the open thread once per opening: when it opens (or its row first arrives). An
   * opening is used up even when the thread was already read, so a thread marked unread
   * while it is open (Shift+U here, or from another tab) stays unread; it used to be read
   * again at once, because only an opening that had read something counted.
   */
  const readOnOpen = useCallback(() => {
    if (!threadKey || markedRead.current === threadKey) return;
    const held = store.get(visibleListAtom).held;
    const current = rowAt(held, indexOfKey(held, threadKey));
    if (!current) return;
    markedRead.current = threadKey;
    if (current.unreadCount === 0) return;
    void actions.runOnThreads({ kind: 'markRead', read: true }, [{ key: current.key, accountId: current.accountId, threadId: current.threadId }]);
  }, [threadKey, actions, store]);
  useEffect(() => {
    if (!threadKey) markedRead.current = null;
    else readOnOpen();
  }, [threadKey, version, readOnOpen]);

  // The messages the opening showed first: a message the view reports unread that is not one
  // of them arrived while the thread was open, and is read because it is on screen.
  const firstShown = useRef<{ key: string; ids: ReadonlySet<string> } | null>(null);
  if (current?.thread && threadKey && firstShown.current?.key !== threadKey) {
    firstShown.current = { key: threadKey, ids: new Set(current.thread.messages.map((message) => message.id)) };
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
  const accounts = useAtomValue(accountsAtom) ?? [];
  const folders = useAtomValue(foldersAtom);
  const place = current?.thread ? threadPlace(current.thread.row, accounts, folders, locale) : null;
  const accountId = current?.thread?.row.accountId;
  const shownThread = useRef(current?.thread);
  shownThread.current = current?.thread;
  // "Me" is the thread's own account (and its aliases), not every account logged in: with
  // alice@ and bob@ both signed in, Alice's reply to Bob went back to Alice (Bob's address
  // counted as her own, so his message looked "sent by me"), and her mail to Bob read "to me".
  const ownEmails = useAtomValue(ownEmailsByAccountAtom).get(accountId ?? '');
  const ownAddresses = useMemo(() => [...(ownEmails ?? [])], [ownEmails]);
  const loadBody = useCallback(
    async (messageId: string, options?: { whole?: boolean }) => {
      const key = `${accountId ?? ''}:${messageId}`;
      const known = cache.bodies.get(key);
      if (known && !(options?.whole && known.truncated)) return known;
      const body = await actions.loadBody({ accountId: accountId ?? '', messageId, ...(options?.whole ? { whole: true } : {}) });
      const draft = shownThread.current?.messages.some((message) => message.id === messageId && message.draft);
      if (!draft) cache.bodies.set(key, body);
      return body;
    },
    [actions, accountId, cache],
  );
  const peekBody = useCallback((messageId: string) => cache.bodies.get(`${accountId ?? ''}:${messageId}`), [cache, accountId]);
  // Read receipts: each account's choice (Settings → Read receipts); an answer leaves the cached body stale (its request is answered now).
  const settings = useAtomValue(accountSettingsAtom);
  const receipts = useMemo<MessageReceipts>(
    () => ({
      policy: (account) => settings?.[account]?.preferences.readReceipts ?? DEFAULT_PREFERENCES.readReceipts,
      answer: async (message, send) => {
        await actions.answerReceipt({ accountId: message.accountId, messageId: message.id, send });
        cache.bodies.delete(`${message.accountId}:${message.id}`);
        if (send) actions.toast({ tone: 'info', message: { id: 'writing.receiptSent' } });
      },
    }),
    [settings, actions, cache],
  );
  const loadAttachment = useCallback(
    (message: MessageView, attachment: AttachmentSummary) => actions.loadAttachment({ accountId: message.accountId, messageId: message.id, index: attachment.index }),
    [actions],
  );
  const previewAttachment = useCallback(
    (message: MessageView, attachment: AttachmentSummary) => actions.previewAttachment({ accountId: message.accountId, messageId: message.id, index: attachment.index }),
    [actions],
  );
  const proxyImages = useCallback((message: MessageView, urls: readonly string[]) => actions.proxyRemoteImages({ accountId: message.accountId, urls }), [actions]);
  // The draft as the gateway keeps it (Bcc and attachments too) and the id it is saved and sent by, not the message's.
  const onEditDraft = useCallback((message: MessageView) => void editDraft(actions, message), [actions]);

  if (!threadKey) return <EmptyPane />;
  return (
    <section className="reading-pane" aria-label={t('app.conversation')} aria-busy={!current} data-thread-key={threadKey}>
      <div className="reading-pane-bar">
        <button type="button" className="icon-button" aria-label={showBack ? t('app.backToTheList') : t('app.closeConversation')} title={t('app.backU')} aria-keyshortcuts="u" onClick={() => onClose()}>
          <Icon name={showBack ? 'arrowLeft' : 'close'} size={18} />
        </button>
        {current?.thread && (
          <PartBoundary resetKey={`${threadKey}:timer-buttons`}>
            <Suspense fallback={null}>
              <ThreadTimers thread={current.thread} ownAddresses={ownAddresses} part="buttons" />
            </Suspense>
          </PartBoundary>
        )}
      </div>
      {/* Focusable (not in the Tab order): auto-advance puts the focus here, and the arrow keys then scroll the conversation. */}
      <div className="reading-pane-scroll" tabIndex={-1}>
        {!current && <div className="reading-pane-loading" role="status">{t('app.loadingConversation')}</div>}
        {current?.error && (
          <div className="reading-pane-error" role="alert">
            {current.error}
          </div>
        )}
        {current?.thread && (
          <PartBoundary resetKey={threadKey}>
            <Suspense fallback={<ThreadSummary thread={current.thread} />}>
              <ThreadTimers thread={current.thread} ownAddresses={ownAddresses} part="lines" />
              <ConversationView
                thread={current.thread}
                place={place}
                loadBody={loadBody}
                peekBody={peekBody}
                loadAttachment={loadAttachment}
                previewAttachment={previewAttachment}
                proxyImages={proxyImages}
                ownAddresses={ownAddresses}
                trustedSenders={trustedSenders}
                onTrustSender={actions.trustSender}
                onDistrustSender={actions.distrustSender}
                onCompose={actions.openComposer}
                receipts={receipts}
                onMessageOpened={onMessageOpened}
                onEditDraft={onEditDraft}
                onFilterLike={(message) => {
                  store.set(filterPrefillAtom, filterPrefillOf(message));
                  void navigate({ to: '/settings/$page', params: { page: 'rules' } });
                }}
                onBlockSender={(message) => message.from[0] && void actions.blockSender({ accountId: message.accountId, sender: message.from[0].email.toLowerCase() })}
                onAddContact={(message) =>
                  message.from[0] &&
                  void actions.addSenderToContacts({
                    accountId: message.accountId,
                    sender: message.from[0],
                    // The toast opens the card: its recent mail is there.
                    open: (cardId) => void navigate({ to: '/contacts', search: { account: message.accountId, contact: cardId } }),
                  })
                }
              />
            </Suspense>
          </PartBoundary>
        )}
      </div>
    </section>
  );
}
