/**
 * One mailbox on screen: its live thread list, the toolbar acting on the selection, the
 * keyboard shortcuts, and the reading pane placed as the view setting says.
 */
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useAtomValue, useStore } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { searchProblemOf } from '../../shared/search-syntax';
import type { FolderView, ListScope, ThreadRow } from '../../shared/worker-mail-api';
import { dispatchMailEvent, MAIL_EVENTS, type MailEventName } from '../kit/mail-events';
import { useMailboxShortcuts } from '../keyboard/use-mailbox-shortcuts';
import { VIEW_MODE_INFO } from '../state/view-mode';
import { useMailActions } from '../state/actions-context';
import { accountsAtom, allInScopeAtom, allInScopeSelectedAtom, cursorAtom, foldersAtom, selectionAnchorAtom, selectionAtom, shortcutsOpenAtom, viewModeAtom, visibleListAtom } from '../state/atoms';
import type { ThreadCommand } from '../state/mail-actions';
import { scopeKeyOf } from '../state/engine-feeds';
import { indexOfKey, rowAt } from '../state/thread-list/list-patch';
import { refOf, selectRange, toggleRow, type ThreadRef } from '../state/thread-list/selection';
import { resolveTargets } from '../state/thread-list/targets';
import { SearchCutNotice } from '../thread-list/SearchCutNotice';
import { SelectAllBanner } from '../thread-list/SelectAllBanner';
import { accountsOfScope } from '../state/thread-list/scope-selection';
import { cursorIndexOf, ThreadList } from '../thread-list/ThreadList';
import { FIRST_WINDOW_ROWS } from '../kit/virtual-window';
import { useT, type MessageId } from '../kit/i18n';
import { focusSearch } from '../toolbar/SearchBox';
import { MailboxToolbar, rowByKey } from './MailboxToolbar';
import { Icon } from '../kit/icons';
import { labelNamesAtom } from '../state/labels';
import { listWidthStyle, PaneDivider, useSplitBody } from './PaneDivider';
import { isLoneDraftRow, openDraftRow } from './open-draft';
import { ReadingPane } from './ReadingPane';
import { useOpenThreadFocus } from './thread-focus';
import { IMPORTANT_KEYWORD, isImportantKeyword } from '../../shared/priority-score';

const mailRoute = getRouteApi('/mail');

export interface MailboxViewProps {
  readonly scope: ListScope;
  readonly title: string;
  /** The special use of the folder shown (or of the unified role), for Trash and Spam rules. */
  readonly specialUse: FolderView['specialUse'];
  /** The folder shown, left out of "Move to". */
  readonly folderId: string | null;
}

/** What an empty mailbox says, by what it is. */
const EMPTY_TEXT: Partial<Record<NonNullable<FolderView['specialUse']>, [MessageId, MessageId]>> = {
  inbox: ['app.emptyInbox', 'app.emptyInboxText'],
  drafts: ['app.emptyDrafts', 'app.emptyDraftsText'],
  sent: ['app.emptySent', 'app.emptySentText'],
  archive: ['app.emptyArchive', 'app.emptyArchiveText'],
  junk: ['app.emptySpam', 'app.emptySpamText'],
  trash: ['app.emptyTrash', 'app.emptyTrashText'],
};

function EmptyState({ scope, title, specialUse }: { scope: ListScope; title: string; specialUse: FolderView['specialUse'] }) {
  const t = useT();
  const labelNames = useAtomValue(labelNamesAtom);
  const problem = scope.kind === 'search' ? searchProblemOf(scope.query, labelNames) : null;
  if (problem) {
    // Not "No results": the query cannot run. Why is said once, under the search box
    // (role=alert, tied to the field): repeating the sentence here showed it twice.
    return (
      <div className="empty-state">
        <Icon name="search" size={40} className="empty-state-icon" />
        <p className="empty-state-title">{t('app.cantSearch', { query: scope.kind === 'search' ? scope.query : '' })}</p>
        <p className="empty-state-text">{t('app.theNoteUnderThe')}</p>
      </div>
    );
  }
  if (scope.kind === 'search') {
    return (
      <div className="empty-state">
        <Icon name="search" size={40} className="empty-state-icon" />
        <p className="empty-state-title">{t('app.noResults', { query: scope.query })}</p>
        <p className="empty-state-text">{t('app.tryOtherWordsOr')}</p>
      </div>
    );
  }
  const known = specialUse ? EMPTY_TEXT[specialUse] : undefined;
  const [heading, text] = known ? [t(known[0]), t(known[1])] : [t('app.emptyFolder', { folder: title }), t('app.emptyFolderText')];
  return (
    <div className="empty-state">
      <Icon name={specialUse === 'inbox' ? 'inbox' : 'folder'} size={40} className="empty-state-icon" />
      <p className="empty-state-title">{heading}</p>
      <p className="empty-state-text">{text}</p>
    </div>
  );
}

/** Commands after which a thread stays where it is (a flag or a label): no auto-advance. */
const staysPut = (command: ThreadCommand) => command.kind === 'markRead' || command.kind === 'star' || command.kind === 'label';

/** Where a command leaves its threads, as far as this tab can tell before the worker answers. */
function leavesListShown(command: ThreadCommand, scope: ListScope, specialUse: FolderView['specialUse'], folders: Readonly<Record<string, readonly FolderView[]>>): boolean {
  if (scope.kind === 'search' || command.kind === 'label') return false; // results keep threads wherever they go; a label moves nothing
  if (specialUse === 'inbox') {
    // Archive, trash, spam and move take every inbox message of a thread out of the inbox (command-plan.ts) — unless it moves to an inbox.
    if (command.kind !== 'move') return true;
    return !Object.values(folders).some((list) => list.some((folder) => folder.id === command.folderId && folder.specialUse === 'inbox'));
  }
  // Not spam takes a thread's Spam messages to the Inbox: none are left in Spam.
  if (specialUse === 'junk' && command.kind === 'notspam') return true;
  return specialUse === 'trash' && command.kind === 'delete';
}

/**
 * The mailbox reads the list, the cursor and the selection only when a key or button asks
 * (store.get), never to render: a patch or a cursor move re-renders the list and the
 * toolbar, not the whole mailbox with its reading pane.
 */
export function MailboxView({ scope, title, specialUse, folderId }: MailboxViewProps) {
  const actions = useMailActions();
  const store = useStore();
  const navigate = useNavigate();
  const openKey = mailRoute.useSearch({ select: (search) => search.thread ?? null });
  const viewMode = useAtomValue(viewModeAtom);
  const layout = VIEW_MODE_INFO[viewMode].layout;
  const multiAccount = useAtomValue(accountsAtom) ?? [];
  const [moveOpenSignal, setMoveOpenSignal] = useState(0);
  const [labelOpenSignal, setLabelOpenSignal] = useState(0);
  const [keyMoveTargets, setKeyMoveTargets] = useState<readonly ThreadRef[] | null>(null);
  const scopeKey = scopeKeyOf(scope);

  // One live list per mailbox shown; a new scope starts with a fresh selection and cursor.
  useEffect(() => {
    store.set(selectionAtom, new Map());
    store.set(selectionAnchorAtom, null);
    store.set(cursorAtom, { key: null, index: 0 });
    void actions.openThreadList(scope, { offset: 0, limit: FIRST_WINDOW_ROWS });
    return () => actions.closeThreadList(scope);
    // The scope object changes identity on every render; its key says when it really changed.
  }, [scopeKey, actions, store]);

  const setOpenThread = useCallback(
    (key: string | null) => void navigate({ to: '.', search: (previous: Record<string, unknown>) => ({ ...previous, thread: key ?? undefined }) }),
    [navigate],
  );
  // A draft alone in Drafts opens in the composer (open-draft.ts); any other row opens its thread.
  const onOpen = useCallback(
    (row: ThreadRow, index?: number) => {
      if (!isLoneDraftRow(row, specialUse)) return setOpenThread(row.key);
      // No thread opens, so the cursor goes to the row itself (Enter, j and k go on from there).
      store.set(cursorAtom, { key: row.key, index: index ?? indexOfKey(store.get(visibleListAtom).held, row.key) });
      void openDraftRow(actions, row).then((opened) => opened || setOpenThread(row.key));
    },
    [setOpenThread, specialUse, store, actions],
  );

  // The list beside the pane when both fit; else an open thread replaces it, as in the single view.
  const split = useSplitBody(layout.readingPane === 'right');
  const [dragWidth, setDragWidth] = useState<number | null>(null);
  const replaced = layout.readingPane === 'replace' || split.arrangement === 'replace';
  const threadFocus = useOpenThreadFocus({ openKey, setOpenThread, listHiddenWhileOpen: replaced });
  const held = () => store.get(visibleListAtom).held;
  const cursorIndex = () => cursorIndexOf(held(), store.get(cursorAtom));
  /** Keys act on the checked rows, else the cursor's row, else the open thread; buttons skip the cursor (targets.ts). */
  const targets = (withCursor: boolean): ThreadRef[] =>
    resolveTargets({
      held: held(),
      selection: store.get(selectionAtom),
      openKey,
      cursor: withCursor ? store.get(cursorAtom) : null,
      listShown: !(replaced && openKey),
    });

  // The cursor follows the thread opened (a click, a link, Back): keys then act on what is read.
  useEffect(() => {
    if (!openKey) return;
    const at = indexOfKey(store.get(visibleListAtom).held, openKey);
    store.set(cursorAtom, (cursor) => (cursor.key === openKey ? cursor : { key: openKey, index: at >= 0 ? at : cursor.index }));
  }, [openKey, store]);

  const run = (command: ThreadCommand, withCursor = false, chosen?: readonly ThreadRef[]) => {
    const leavesList = leavesListShown(command, scope, specialUse, store.get(foldersAtom));
    if (store.get(allInScopeSelectedAtom)) {
      // "All N conversations" selected: the engine finds them all (the loaded rows are a few of them).
      if (!staysPut(command)) threadFocus.leaving(held()?.rows.map((row) => row.key) ?? []);
      void actions.runOnScope(command, scope, { leavesList });
      return;
    }
    const threads = chosen ? [...chosen] : targets(withCursor);
    if (threads.length === 0) return;
    const leaves = !staysPut(command);
    // The open thread leaving: the next one opens (Gmail's auto-advance) and the focus follows.
    if (leaves) threadFocus.leaving(threads.map((thread) => thread.key));
    void actions.runOnThreads(command, threads, { leavesList });
    // A mark important / not important teaches the account's model too (one step per mark).
    if (command.kind === 'label' && isImportantKeyword(command.keyword)) void actions.learnPriority(threads, command.add);
  };

  const moveCursor = (delta: number) => {
    const total = held()?.total ?? 0;
    if (total === 0) return;
    const index = Math.max(0, Math.min(total - 1, cursorIndex() + delta));
    const row = rowAt(held(), index);
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
      const index = cursorIndex();
      const row = rowAt(held(), index);
      if (row) onOpen(row, index);
    },
    back: () => {
      if (store.get(selectionAtom).size > 0) store.set(selectionAtom, new Map());
      else if (openKey) threadFocus.closeThread();
    },
    toggleSelect: () => {
      const index = cursorIndex();
      const row = rowAt(held(), index);
      if (!row) return;
      store.set(selectionAtom, (selected) => toggleRow(selected, row));
      store.set(selectionAnchorAtom, index);
    },
    archive: () => run({ kind: 'archive' }, true),
    delete: () => run({ kind: specialUse === 'trash' ? 'delete' : 'trash' }, true),
    // `!` toggles as in Gmail: in Spam it is Not spam.
    spam: () => run({ kind: specialUse === 'junk' ? 'notspam' : 'spam' }, true),
    star: () => {
      const rows = targets(true).map((ref) => rowByKey(held(), ref.key));
      run({ kind: 'star', starred: !(rows.length > 0 && rows.every((row) => row?.starred)) }, true);
    },
    markRead: () => run({ kind: 'markRead', read: true }, true),
    markUnread: () => run({ kind: 'markRead', read: false }, true),
    move: () => {
      const chosen = targets(true);
      if (chosen.length === 0) return;
      setKeyMoveTargets(chosen);
      setMoveOpenSignal((value) => value + 1);
    },
    // `l` opens "Label as" for the same targets as `v` (Gmail's key).
    label: () => {
      const chosen = targets(true);
      if (chosen.length === 0) return;
      setKeyMoveTargets(chosen);
      setLabelOpenSignal((value) => value + 1);
    },
    markImportant: () => run({ kind: 'label', keyword: IMPORTANT_KEYWORD, add: true }, true),
    markNotImportant: () => run({ kind: 'label', keyword: IMPORTANT_KEYWORD, add: false }, true),
    undo: () => actions.undoLast(),
    compose: () => dispatchMailEvent(MAIL_EVENTS.compose, scope.kind === 'folder' ? { accountId: scope.accountId } : {}),
    reply: () => mailEvent(MAIL_EVENTS.reply),
    replyAll: () => mailEvent(MAIL_EVENTS.replyAll),
    forward: () => mailEvent(MAIL_EVENTS.forward),
    search: focusSearch,
    help: () => store.set(shortcutsOpenAtom, true),
  });

  const onSelectAll = (select: boolean) => {
    const rows = held()?.rows ?? [];
    store.set(selectionAtom, select ? selectRange(new Map(), rows) : new Map());
  };

  const showList = !replaced || !openKey;
  const showPane = !replaced || Boolean(openKey);
  // One list per mailbox, kept from the mailbox to its searches and from one query to the
  // next: it swaps its rows (keeping the last ones, busy, until the next arrive) instead of
  // mounting again with placeholders on every keystroke.
  const listKey = folderId ?? `unified:${specialUse ?? ''}`;
  const beside = layout.readingPane === 'right' && !replaced;
  const listWidth = dragWidth ?? split.listWidth;
  return (
    <div className={`mailbox mailbox-pane-${layout.readingPane}${layout.readingPane === 'right' && replaced ? ' mailbox-narrow' : ''}`}>
      <MailboxToolbar
        title={title}
        openKey={openKey}
        folderId={folderId}
        specialUse={specialUse}
        moveOpenSignal={moveOpenSignal}
        labelOpenSignal={labelOpenSignal}
        keyMoveTargets={keyMoveTargets}
        onMoveMenuOpenChange={(open) => !open && setKeyMoveTargets(null)}
        onRun={(command) => run(command, false, keyMoveTargets ?? undefined)}
        onSelectAll={onSelectAll}
        scopeAccounts={accountsOfScope(scope)}
      />
      <SelectAllBanner
        folderName={scope.kind === 'search' ? 'this search' : title}
        onSelectScope={() => store.set(allInScopeAtom, { scopeKey, selection: store.get(selectionAtom) })}
        onClear={() => store.set(selectionAtom, new Map())}
      />
      {scope.kind === 'search' && <SearchCutNotice server={scope.server === true} />}
      <div className="mailbox-body" ref={split.bodyRef}>
        <div className="mailbox-list" hidden={!showList} style={beside ? listWidthStyle(dragWidth ?? split.chosenWidth) : undefined}>
          <ThreadList
            key={listKey}
            id="thread-list"
            label={title}
            layout={layout}
            openKey={openKey}
            showAccountMarkers={scope.kind !== 'folder' && multiAccount.length > 1}
            emptyState={<EmptyState scope={scope} title={title} specialUse={specialUse} />}
            onOpen={onOpen}
            onSwipe={(row, direction) => run(direction === 'archive' ? { kind: 'archive' } : { kind: specialUse === 'trash' ? 'delete' : 'trash' }, false, [refOf(row)])}
          />
        </div>
        {beside && split.bodyWidth > 0 && <PaneDivider bodyWidth={split.bodyWidth} listWidth={listWidth} onPreview={setDragWidth} />}
        {showPane && <ReadingPane threadKey={openKey} onClose={threadFocus.closeThread} showBack={replaced} />}
      </div>
    </div>
  );
}
