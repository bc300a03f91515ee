/**
 * One mailbox on screen: its live thread list, the toolbar acting on the selection, the
 * keyboard shortcuts, and the reading pane placed as the view setting says.
 */
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useAtomValue, useStore } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FolderView, ListScope, ThreadRow } from '../../shared/worker-mail-api';
import { dispatchMailEvent, MAIL_EVENTS, type MailEventName } from '../keyboard/mail-events';
import { useMailboxShortcuts } from '../keyboard/use-mailbox-shortcuts';
import { VIEW_MODE_INFO } from '../settings/view-mode';
import { orderFolders } from '../sidebar/folder-order';
import { useMailActions } from '../state/actions-context';
import { accountsAtom, cursorAtom, foldersAtom, selectionAnchorAtom, selectionAtom, shortcutsOpenAtom, threadListAtom, viewModeAtom } from '../state/atoms';
import type { ThreadCommand } from '../state/mail-actions';
import { scopeKeyOf } from '../state/worker-bridge';
import { indexOfKey, rowAt, type HeldList } from '../thread-list/list-patch';
import { groupByAccount, refOf, selectRange, toggleRow, type ThreadRef } from '../thread-list/selection';
import { ThreadList, useCursorIndex } from '../thread-list/ThreadList';
import { DATA_WINDOW_ROWS } from '../thread-list/virtual-window';
import { focusSearch } from '../toolbar/SearchBox';
import { Toolbar } from '../toolbar/Toolbar';
import { Icon } from './icons';
import { parseRowKey } from './list-scope';
import { ReadingPane } from './ReadingPane';

const mailRoute = getRouteApi('/mail');

export interface MailboxViewProps {
  readonly scope: ListScope;
  readonly title: string;
  /** The special use of the folder shown (or of the unified role), for Trash and Spam rules. */
  readonly specialUse: FolderView['specialUse'];
  /** The folder shown, left out of "Move to". */
  readonly folderId: string | null;
}

const rowByKey = (held: HeldList | null, key: string): ThreadRow | undefined => rowAt(held, indexOfKey(held, key));

function refOfKey(held: HeldList | null, key: string): ThreadRef | null {
  const row = rowByKey(held, key);
  if (row) return refOf(row);
  const parsed = parseRowKey(key);
  return parsed ? { key, ...parsed } : null;
}

/** What an empty mailbox says, by what it is. */
const EMPTY_TEXT: Partial<Record<NonNullable<FolderView['specialUse']>, [string, string]>> = {
  inbox: ['Your inbox is empty', 'You’re all caught up.'],
  drafts: ['No drafts', 'Messages you start and don’t send wait here.'],
  sent: ['Nothing sent yet', 'Messages you send show here.'],
  archive: ['Nothing archived', 'Archive a conversation (e) to keep it out of the inbox.'],
  junk: ['No spam', 'Nothing suspicious has arrived.'],
  trash: ['Trash is empty', 'Deleted conversations wait here before they are gone for good.'],
};

function EmptyState({ scope, title, specialUse }: { scope: ListScope; title: string; specialUse: FolderView['specialUse'] }) {
  if (scope.kind === 'search') {
    return (
      <div className="empty-state">
        <Icon name="search" size={40} className="empty-state-icon" />
        <p className="empty-state-title">No results for “{scope.query}”</p>
        <p className="empty-state-text">Try other words, or search all accounts. Operators work too: from:, subject:, is:unread, has:attachment.</p>
      </div>
    );
  }
  const [heading, text] = (specialUse && EMPTY_TEXT[specialUse]) || [`${title} is empty`, 'Nothing in this folder.'];
  return (
    <div className="empty-state">
      <Icon name={specialUse === 'inbox' ? 'inbox' : 'folder'} size={40} className="empty-state-icon" />
      <p className="empty-state-title">{heading}</p>
      <p className="empty-state-text">{text}</p>
    </div>
  );
}

export function MailboxView({ scope, title, specialUse, folderId }: MailboxViewProps) {
  const actions = useMailActions();
  const store = useStore();
  const navigate = useNavigate();
  const search = mailRoute.useSearch();
  const viewMode = useAtomValue(viewModeAtom);
  const layout = VIEW_MODE_INFO[viewMode].layout;
  const list = useAtomValue(threadListAtom);
  const selection = useAtomValue(selectionAtom);
  const folders = useAtomValue(foldersAtom);
  const accounts = useAtomValue(accountsAtom) ?? [];
  const cursorIndex = useCursorIndex();
  const [moveOpenSignal, setMoveOpenSignal] = useState(0);
  const scopeKey = scopeKeyOf(scope);
  const openKey = search.thread ?? null;
  const held = list.scopeKey === scopeKey ? list.held : null;

  // One live list per mailbox shown; a new scope starts with a fresh selection and cursor.
  useEffect(() => {
    store.set(selectionAtom, new Map());
    store.set(selectionAnchorAtom, null);
    store.set(cursorAtom, { key: null, index: 0 });
    void actions.openThreadList(scope, { offset: 0, limit: DATA_WINDOW_ROWS });
    return () => actions.closeThreadList(scope);
    // The scope object changes identity on every render; its key says when it really changed.
  }, [scopeKey, actions, store]);

  const setOpenThread = useCallback(
    (key: string | null) => void navigate({ to: '.', search: (previous: Record<string, unknown>) => ({ ...previous, thread: key ?? undefined }) }),
    [navigate],
  );
  const onOpen = useCallback((row: ThreadRow) => setOpenThread(row.key), [setOpenThread]);

  /** What commands act on: the selection, else the open thread, else (keys only) the cursor's row. */
  const targets = (withCursor: boolean): ThreadRef[] => {
    const current = store.get(threadListAtom).held;
    const selected = store.get(selectionAtom);
    if (selected.size > 0) return [...selected.values()];
    const open = openKey ? refOfKey(current, openKey) : null;
    if (open) return [open];
    const row = withCursor ? rowAt(current, cursorIndex) : undefined;
    return row ? [refOf(row)] : [];
  };

  const run = (command: ThreadCommand, withCursor = false) => {
    const threads = targets(withCursor);
    if (threads.length === 0) return;
    const leaves = command.kind !== 'markRead' && command.kind !== 'star';
    if (leaves && openKey && threads.some((thread) => thread.key === openKey)) setOpenThread(null);
    void actions.runOnThreads(command, threads);
  };

  const toolbarTargets = targets(false);
  const targetRows = toolbarTargets.map((ref) => rowByKey(held, ref.key));
  const anyUnread = targetRows.some((row) => (row?.unreadCount ?? 0) > 0);
  const allStarred = targetRows.length > 0 && targetRows.every((row) => row?.starred);
  const targetAccounts = groupByAccount(toolbarTargets);
  const moveAccount = targetAccounts.size === 1 ? [...targetAccounts.keys()][0] : undefined;
  const moveFolders = useMemo(() => {
    if (!moveAccount) return null;
    const account = accounts.find((known) => known.accountId === moveAccount);
    return orderFolders(folders[moveAccount] ?? [], account?.mailProperties.folderSeparator || '/').filter(({ folder }) => folder.id !== folderId);
  }, [moveAccount, folders, accounts, folderId]);

  const moveCursor = (delta: number) => {
    const total = held?.total ?? 0;
    if (total === 0) return;
    const index = Math.max(0, Math.min(total - 1, cursorIndex + delta));
    const row = rowAt(store.get(threadListAtom).held, index);
    store.set(cursorAtom, { key: row?.key ?? null, index });
    // With a thread open, j/k go to the next one (Gmail's behaviour).
    if (openKey && row) setOpenThread(row.key);
  };

  const mailEvent = (name: MailEventName) => {
    const thread = targets(true)[0];
    dispatchMailEvent(name, thread ? { accountId: thread.accountId, threadId: thread.threadId } : {});
  };

  useMailboxShortcuts({
    next: () => moveCursor(1),
    previous: () => moveCursor(-1),
    open: () => {
      const row = rowAt(store.get(threadListAtom).held, cursorIndex);
      if (row) setOpenThread(row.key);
    },
    back: () => {
      if (store.get(selectionAtom).size > 0) store.set(selectionAtom, new Map());
      else if (openKey) setOpenThread(null);
    },
    toggleSelect: () => {
      const row = rowAt(store.get(threadListAtom).held, cursorIndex);
      if (!row) return;
      store.set(selectionAtom, (selected) => toggleRow(selected, row));
      store.set(selectionAnchorAtom, cursorIndex);
    },
    archive: () => run({ kind: 'archive' }, true),
    delete: () => run({ kind: specialUse === 'trash' ? 'delete' : 'trash' }, true),
    spam: () => specialUse !== 'junk' && run({ kind: 'spam' }, true),
    star: () => {
      const rows = targets(true).map((ref) => rowByKey(store.get(threadListAtom).held, ref.key));
      run({ kind: 'star', starred: !(rows.length > 0 && rows.every((row) => row?.starred)) }, true);
    },
    markRead: () => run({ kind: 'markRead', read: true }, true),
    markUnread: () => run({ kind: 'markRead', read: false }, true),
    move: () => setMoveOpenSignal((value) => value + 1),
    compose: () => dispatchMailEvent(MAIL_EVENTS.compose, scope.kind === 'folder' ? { accountId: scope.accountId } : {}),
    reply: () => mailEvent(MAIL_EVENTS.reply),
    replyAll: () => mailEvent(MAIL_EVENTS.replyAll),
    forward: () => mailEvent(MAIL_EVENTS.forward),
    search: focusSearch,
    help: () => store.set(shortcutsOpenAtom, true),
  });

  const onSelectAll = (select: boolean) => {
    const rows = store.get(threadListAtom).held?.rows ?? [];
    store.set(selectionAtom, select ? selectRange(new Map(), rows) : new Map());
  };

  const replaced = layout.readingPane === 'replace';
  const showList = !replaced || !openKey;
  const showPane = !replaced || Boolean(openKey);
  return (
    <div className={`mailbox mailbox-pane-${layout.readingPane}`}>
      <Toolbar
        title={title}
        total={held?.total ?? 0}
        selectedCount={selection.size}
        loadedCount={held?.rows.length ?? 0}
        targetCount={toolbarTargets.length}
        anyUnread={anyUnread}
        allStarred={allStarred}
        moveFolders={moveFolders}
        deleteForever={specialUse === 'trash'}
        inSpam={specialUse === 'junk'}
        moveOpenSignal={moveOpenSignal}
        onRun={(command) => run(command)}
        onSelectAll={onSelectAll}
      />
      <div className="mailbox-body">
        <div className="mailbox-list" hidden={!showList}>
          <ThreadList
            key={scopeKey}
            id="thread-list"
            label={title}
            layout={layout}
            openKey={openKey}
            showAccountMarkers={scope.kind !== 'folder' && accounts.length > 1}
            emptyState={<EmptyState scope={scope} title={title} specialUse={specialUse} />}
            onOpen={onOpen}
          />
        </div>
        {showPane && <ReadingPane threadKey={openKey} onClose={() => setOpenThread(null)} showBack={replaced} />}
      </div>
    </div>
  );
}
