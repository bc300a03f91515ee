/**
 * The sidebar: compose, the unified inbox, then every account with its avatar colour
 * (spec §9 hue rule), unread count and folders (special first, nested by depth).
 *
 * The unified inbox, the account buttons and the folders form one tree for the keyboard
 * (use-roving-tree.ts): one Tab stop, on the mailbox shown; arrows move between items, open
 * and close accounts and folders with subfolders. The items stay links and buttons, so
 * their roles and names (folder name and unread count) are what they were.
 *
 * Folders are managed here too, as in Gmail: "New folder" ends each account's folders (a
 * tree item like the others), and each of the person's own folders has a menu (Rename,
 * Move to…, New subfolder, Delete) on its "…" button, on a right click, and from the
 * keyboard with the context-menu key or Shift+F10 on the folder. Special folders have none.
 */
import { getRouteApi, Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { memo, useCallback, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { senderName, type PublicAccount } from '../../shared/account';
import type { FolderView } from '../../shared/worker-mail-api';
import { brand } from '../brand';
import { Avatar } from '../kit/Avatar';
import { useActiveAccountId, useCurrentMailbox, type CurrentMailbox } from '../state/current-mailbox';
import { folderIcon, Icon } from '../kit/icons';
import { MenuButton } from '../kit/Menu';
import { dispatchMailEvent, MAIL_EVENTS } from '../kit/mail-events';
import { accountsAtom, foldersAtom, inboxUnreadAtom } from '../state/atoms';
import { DeleteFolderDialog } from './DeleteFolderDialog';
import { FolderDialog, type FolderDialogMode } from './FolderDialog';
import { orderFolders, visibleFolders, type VisibleFolder } from '../state/folder-order';
import { useRovingTree } from './use-roving-tree';
import { useLocale, useT } from '../kit/i18n';
import { labelsByAccountAtom } from '../state/labels';
import type { Label } from '../../shared/labels';
import { AccountLabels, labelKey, manageLabelsKey } from './AccountLabels';

const mailRoute = getRouteApi('/mail');
const NO_LABELS: readonly Label[] = [];


/** Keys of the tree's items (data-tree-key). */
const UNIFIED_KEY = 'unified';
/** The Scheduled list (scheduled/ScheduledView.tsx): every account's messages the gateway sends later. */
const SCHEDULED_KEY = 'scheduled';
/** Every account's Snoozed folder as one list (issue 15 point 4): threads the gateway brings back at their time. */
const SNOOZED_KEY = 'snoozed';
const accountKey = (accountId: string) => `account:${accountId}`;
const folderKey = (accountId: string, folderId: string) => `folder:${accountId}:${folderId}`;
const newFolderKey = (accountId: string) => `new-folder:${accountId}`;

/** A folder dialog the sidebar shows: New folder, Rename, Move to… or Delete, for one account. */
type FolderAction = { readonly accountId: string } & (FolderDialogMode | { readonly kind: 'delete'; readonly folder: FolderView });

/** The context-menu key, or Shift+F10: the keyboard's right click. */
const opensContextMenu = (event: KeyboardEvent) => event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);

/**
 * The router marks a link it matches with aria-current itself, and `search={{}}` matches
 * any search (results included): only an exact match may, the rest is `markedKey`'s.
 */
const EXACT = { exact: true } as const;

function currentKeyOf(current: CurrentMailbox): string | null {
  if (current?.kind === 'unified') return current.role === 'inbox' ? UNIFIED_KEY : current.role === 'snoozed' ? SNOOZED_KEY : null;
  if (current?.kind === 'folder') return folderKey(current.accountId, current.folderId);
  if (current?.kind === 'label') return labelKey(current.accountId, current.label);
  return null;
}

function UnreadCount({ count }: { count: number }) {
  const t = useT();
  const locale = useLocale();
  if (count <= 0) return null;
  return (
    <span className="nav-count">
      {count > 9999 ? '9999+' : count.toLocaleString(locale)}
      <span className="visually-hidden"> {t('sidebar.unread')}</span>
    </span>
  );
}

/** What the sidebar counts as unread in a folder: the inbox's threads (absent until known); nothing for sent, drafts and trash. */
function unreadShown(folder: FolderView, inboxUnread: number): number {
  if (folder.specialUse === 'inbox') return inboxUnread;
  // Not read from the mail server yet (a first sync): its count is not known, so none is shown.
  if (folder.mirrored === false) return 0;
  return folder.specialUse === 'sent' || folder.specialUse === 'drafts' || folder.specialUse === 'trash' ? 0 : folder.unread;
}

const AccountFolders = memo(function AccountFolders(props: {
  account: PublicAccount;
  /** Null while the engine has not listed them yet. */
  folders: readonly VisibleFolder[] | null;
  inboxUnread: number;
  expanded: boolean;
  /** The folder shown, when it is one of this account's and no search is on screen. */
  currentFolderId: string | null;
  /** The account's labels (by name) and the one shown. */
  labels: readonly Label[];
  currentKeyword: string | null;
  /** The one item of the tree Tab lands on. */
  tabbableKey: string;
  onToggle: (key: string, expand: boolean) => void;
  onFolderAction: (action: FolderAction) => void;
}) {
  const t = useT();
  const { account, folders, inboxUnread, expanded, currentFolderId, tabbableKey, onToggle, onFolderAction } = props;
  /** The folder whose menu a key or a right click opened, and a count that reopens it. */
  const [menuOpened, setMenuOpened] = useState<{ folderId: string; signal: number } | null>(null);
  const openMenu = (folderId: string) => setMenuOpened((last) => ({ folderId, signal: (last?.signal ?? 0) + 1 }));
  const tabIndexOf = (key: string) => (key === tabbableKey ? 0 : -1);
  const listId = `folders-${account.accountId}`;
  const label = account.label || account.emailAddress;
  // The name set in "Sender name…" when there is one, else the gateway's.
  const name = senderName(account);
  const ownKey = accountKey(account.accountId);
  return (
    <section className="account-section" aria-label={label}>
      <button
        type="button"
        className="account-toggle"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => onToggle(ownKey, !expanded)}
        data-tree-key={ownKey}
        data-tree-level={1}
        tabIndex={tabIndexOf(ownKey)}
      >
        <Avatar name={name} email={account.emailAddress} hue={account.iconColor} size={28} />
        <span className="account-toggle-text">
          <span className="account-toggle-name">{name || label}</span>
          <span className="account-toggle-email">{account.emailAddress}</span>
        </span>
        {!expanded && <UnreadCount count={inboxUnread} />}
        <Icon name={expanded ? 'chevronDown' : 'chevronRight'} size={16} className="account-toggle-chevron" />
      </button>
      {expanded && (
        <ul id={listId} className="nav-list" aria-label={t('sidebar.foldersOf', { account: label })}>
          {/* Every IMAP account has at least INBOX: an empty list means the first sync has not listed them yet. */}
          {(folders === null || folders.length === 0) && <li className="nav-loading">{t('sidebar.loadingFolders')}</li>}
          {folders?.map(({ folder, depth, displayName, expanded: open }) => {
            const active = currentFolderId === folder.id;
            const key = folderKey(account.accountId, folder.id);
            const own = folder.specialUse === null;
            const act = (kind: 'rename' | 'move' | 'delete') => onFolderAction({ accountId: account.accountId, kind, folder });
            return (
              <li key={folder.id} className={own ? 'nav-tree-row has-folder-menu' : 'nav-tree-row'}>
                {open !== null && (
                  // The mouse's way to open and close subfolders (not a control of its own: the keyboard's way is Right and Left on the link, which says aria-expanded).
                  <span className="nav-twisty" aria-hidden="true" style={{ ['--depth' as string]: String(depth) }} onClick={() => onToggle(key, !open)}>
                    <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
                  </span>
                )}
                <Link
                  to="/mail/$accountId/$folderId"
                  params={{ accountId: account.accountId, folderId: folder.id }}
                  search={{}}
                  activeOptions={EXACT}
                  className={active ? 'nav-item is-active' : 'nav-item'}
                  aria-current={active ? 'page' : undefined}
                  aria-expanded={open ?? undefined}
                  style={{ ['--depth' as string]: String(depth) }}
                  data-tree-key={key}
                  data-tree-level={2 + depth}
                  tabIndex={tabIndexOf(key)}
                  aria-keyshortcuts={own ? 'Shift+F10' : undefined}
                  onKeyDown={
                    own
                      ? (event: KeyboardEvent) => {
                          if (!opensContextMenu(event)) return;
                          event.preventDefault();
                          openMenu(folder.id);
                        }
                      : undefined
                  }
                  onContextMenu={
                    own
                      ? (event: MouseEvent) => {
                          event.preventDefault();
                          openMenu(folder.id);
                        }
                      : undefined
                  }
                >
                  <Icon name={folderIcon(folder.specialUse)} size={17} className="nav-icon" />
                  <span className="nav-label">{displayName}</span>
                  <UnreadCount count={unreadShown(folder, inboxUnread)} />
                </Link>
                {own && (
                  <MenuButton
                    label={t('sidebar.moreActionsFor', { name: displayName })}
                    title={t('sidebar.moreActionsTitle', { name: displayName })}
                    className="icon-button nav-folder-menu"
                    menuClassName="folder-menu"
                    tabIndex={-1}
                    openSignal={menuOpened?.folderId === folder.id ? menuOpened.signal : undefined}
                    returnFocusAfterSignal={() => document.querySelector<HTMLElement>(`[data-tree-key="${CSS.escape(key)}"]`)?.focus()}
                    entries={[
                      { kind: 'item', id: 'rename', label: t('sidebar.rename'), icon: 'compose', onSelect: () => act('rename') },
                      { kind: 'item', id: 'move', label: t('sidebar.moveTo'), icon: 'move', onSelect: () => act('move') },
                      { kind: 'item', id: 'subfolder', label: t('sidebar.newSubfolder'), icon: 'plus', onSelect: () => onFolderAction({ accountId: account.accountId, kind: 'create', parent: folder }) },
                      { kind: 'separator', id: 'separator' },
                      { kind: 'item', id: 'delete', label: t('sidebar.delete'), icon: 'trash', onSelect: () => act('delete') },
                    ]}
                  >
                    <Icon name="more" size={16} />
                  </MenuButton>
                )}
              </li>
            );
          })}
          {folders !== null && folders.length > 0 && (
            <li className="nav-tree-row">
              <button
                type="button"
                className="nav-item nav-new-folder"
                // Named on the button itself: the narrow sidebar hides its label text.
                aria-label={t('sidebar.newFolder')}
                style={{ ['--depth' as string]: '0' }}
                data-tree-key={newFolderKey(account.accountId)}
                data-tree-level={2}
                tabIndex={tabIndexOf(newFolderKey(account.accountId))}
                onClick={() => onFolderAction({ accountId: account.accountId, kind: 'create', parent: null })}
              >
                <Icon name="plus" size={17} className="nav-icon" />
                <span className="nav-label">{t('sidebar.newFolder')}</span>
              </button>
            </li>
          )}
        </ul>
      )}
      {expanded && folders !== null && folders.length > 0 && <AccountLabels account={account} labels={props.labels} currentKeyword={props.currentKeyword} tabIndexOf={tabIndexOf} />}
    </section>
  );
});

export function Sidebar() {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const folders = useAtomValue(foldersAtom);
  const labels = useAtomValue(labelsByAccountAtom);
  const unread = useAtomValue(inboxUnreadAtom);
  const current = useCurrentMailbox();
  const searching = Boolean(mailRoute.useSearch({ select: (search) => search.q ?? null }));
  const activeAccountId = useActiveAccountId();
  const totalUnread = accounts.reduce((sum, account) => sum + (unread[account.accountId] ?? 0), 0);
  // Search results are not the folder searched in: nothing is marked current then.
  const currentKey = currentKeyOf(current);
  const markedKey = searching ? null : currentKey;

  /** Closed accounts and closed folders with subfolders, by tree key. */
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const onToggle = useCallback((key: string, expand: boolean) => {
    setCollapsed((before) => {
      if (before.has(key) !== expand) return before;
      const next = new Set(before);
      if (expand) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  const shown = useMemo(
    () =>
      accounts.map((account) => {
        // Each account's Snoozed folder shows as the one Snoozed list at the top, not under the account.
        const listed = folders[account.accountId]?.filter((folder) => folder.specialUse !== 'snoozed');
        const separator = account.mailProperties.folderSeparator || '/';
        const closedFolders = new Set([...collapsed].filter((key) => key.startsWith(`folder:${account.accountId}:`)).map((key) => key.slice(`folder:${account.accountId}:`.length)));
        return {
          account,
          expanded: !collapsed.has(accountKey(account.accountId)),
          folders: listed === undefined ? null : visibleFolders(orderFolders(listed, separator, locale), closedFolders),
        };
      }),
    [accounts, folders, collapsed, locale],
  );
  const visibleKeys = useMemo(() => {
    const keys = new Set([UNIFIED_KEY]);
    for (const entry of shown) {
      keys.add(accountKey(entry.account.accountId));
      if (entry.expanded) for (const { folder } of entry.folders ?? []) keys.add(folderKey(entry.account.accountId, folder.id));
      if (entry.expanded && (entry.folders?.length ?? 0) > 0) {
        keys.add(newFolderKey(entry.account.accountId));
        for (const label of labels[entry.account.accountId] ?? []) keys.add(labelKey(entry.account.accountId, label.keyword));
        keys.add(manageLabelsKey(entry.account.accountId));
      }
    }
    return keys;
  }, [shown, labels]);
  const tree = useRovingTree({ currentKey, fallbackKey: UNIFIED_KEY, visibleKeys, onToggle });

  const [folderAction, setFolderAction] = useState<FolderAction | null>(null);
  const closeFolderAction = useCallback(() => setFolderAction(null), []);
  const actionAccount = folderAction ? accounts.find((account) => account.accountId === folderAction.accountId) : undefined;
  const actionFolders = folderAction ? (folders[folderAction.accountId] ?? []) : [];
  /** A deleted folder that was on screen (or held the one on screen) gives way to its account's inbox. */
  const afterDelete = (deleted: FolderView, accountId: string) => {
    setFolderAction(null);
    if (current?.kind !== 'folder' || current.accountId !== accountId) return;
    const list = folders[accountId] ?? [];
    const separator = accounts.find((account) => account.accountId === accountId)?.mailProperties.folderSeparator || '/';
    const shown = list.find((folder) => folder.id === current.folderId);
    const inbox = list.find((folder) => folder.specialUse === 'inbox');
    if (inbox && shown && (shown.path === deleted.path || shown.path.startsWith(deleted.path + separator))) {
      void navigate({ to: '/mail/$accountId/$folderId', params: { accountId, folderId: inbox.id }, search: {} });
    }
  };
  const unifiedActive = markedKey === UNIFIED_KEY;
  const scheduledActive = useRouterState({ select: (state) => state.location.pathname === '/mail/scheduled' });

  return (
    <nav className="sidebar" aria-label={t('sidebar.mailboxes')}>
      <div className="sidebar-brand">
        <img src={`data:image/svg+xml,${encodeURIComponent(brand.logoSvg)}`} alt="" width={28} height={28} />
        <span className="sidebar-brand-name">{brand.name}</span>
      </div>
      <button
        type="button"
        className="button button-compose"
        onClick={() => dispatchMailEvent(MAIL_EVENTS.compose, activeAccountId ? { accountId: activeAccountId } : {})}
        aria-keyshortcuts="c"
      >
        <Icon name="compose" size={18} /> {t('sidebar.compose')}
      </button>
      <div className="sidebar-scroll">
        <div className="sidebar-tree" {...tree.containerProps}>
          <ul className="nav-list" aria-label={t('sidebar.allAccounts')}>
            <li>
              <Link
                to="/mail/unified/$role"
                params={{ role: 'inbox' }}
                search={{}}
                activeOptions={EXACT}
                className={unifiedActive ? 'nav-item is-active' : 'nav-item'}
                aria-current={unifiedActive ? 'page' : undefined}
                data-tree-key={UNIFIED_KEY}
                data-tree-level={1}
                tabIndex={tree.tabbableKey === UNIFIED_KEY ? 0 : -1}
              >
                <Icon name="inboxes" size={17} className="nav-icon" />
                <span className="nav-label">{accounts.length > 1 ? t('sidebar.allInboxes') : t('sidebar.inbox')}</span>
                <UnreadCount count={totalUnread} />
              </Link>
            </li>
            <li>
              <Link
                to="/mail/scheduled"
                search={{}}
                className={scheduledActive ? 'nav-item is-active' : 'nav-item'}
                aria-current={scheduledActive ? 'page' : undefined}
                data-tree-key={SCHEDULED_KEY}
                data-tree-level={1}
                tabIndex={tree.tabbableKey === SCHEDULED_KEY ? 0 : -1}
              >
                <Icon name="send" size={17} className="nav-icon" />
                <span className="nav-label">{t('scheduled.viewTitle')}</span>
              </Link>
            </li>
            <li>
              <Link
                to="/mail/unified/$role"
                params={{ role: 'snoozed' }}
                search={{}}
                activeOptions={EXACT}
                className={markedKey === SNOOZED_KEY ? 'nav-item is-active' : 'nav-item'}
                aria-current={markedKey === SNOOZED_KEY ? 'page' : undefined}
                data-tree-key={SNOOZED_KEY}
                data-tree-level={1}
                tabIndex={tree.tabbableKey === SNOOZED_KEY ? 0 : -1}
              >
                <Icon name="clock" size={17} className="nav-icon" />
                <span className="nav-label">{t('timers.snoozedView')}</span>
              </Link>
            </li>
          </ul>
          {shown.map(({ account, expanded, folders: accountFolders }) => (
            <AccountFolders
              key={account.accountId}
              account={account}
              folders={accountFolders}
              inboxUnread={unread[account.accountId] ?? 0}
              expanded={expanded}
              currentFolderId={markedKey !== null && current?.kind === 'folder' && current.accountId === account.accountId ? current.folderId : null}
              labels={labels[account.accountId] ?? NO_LABELS}
              currentKeyword={markedKey !== null && current?.kind === 'label' && current.accountId === account.accountId ? current.label : null}
              tabbableKey={tree.tabbableKey}
              onToggle={onToggle}
              onFolderAction={setFolderAction}
            />
          ))}
        </div>
        <Link to="/login" search={{ add: '1' }} className="nav-item nav-add-account">
          <Icon name="plus" size={17} className="nav-icon" />
          <span className="nav-label">{t('sidebar.addAccount')}</span>
        </Link>
      </div>
      {folderAction && actionAccount && folderAction.kind === 'delete' && (
        <DeleteFolderDialog
          account={actionAccount}
          folders={actionFolders}
          folder={folderAction.folder}
          onClose={closeFolderAction}
          onDeleted={() => afterDelete(folderAction.folder, folderAction.accountId)}
        />
      )}
      {folderAction && actionAccount && folderAction.kind !== 'delete' && <FolderDialog account={actionAccount} folders={actionFolders} mode={folderAction} onClose={closeFolderAction} />}
    </nav>
  );
}
