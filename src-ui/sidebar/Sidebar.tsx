/**
 * The sidebar: compose, the unified inbox, then every account with its avatar colour
 * (spec §9 hue rule), unread count and folders (special first, nested by depth).
 */
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { memo, useState } from 'react';
import { senderName, type PublicAccount } from '../../shared/account';
import type { FolderView } from '../../shared/worker-mail-api';
import { brand } from '../brand';
import { Avatar } from '../app/Avatar';
import { useActiveAccountId, useCurrentMailbox } from '../app/current-mailbox';
import { folderIcon, Icon } from '../app/icons';
import { dispatchMailEvent, MAIL_EVENTS } from '../keyboard/mail-events';
import { accountsAtom, foldersAtom, inboxUnreadAtom } from '../state/atoms';
import { orderFolders } from './folder-order';

function UnreadCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="nav-count">
      {count > 9999 ? '9999+' : count.toLocaleString()}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}

const AccountFolders = memo(function AccountFolders(props: {
  account: PublicAccount;
  folders: readonly FolderView[] | undefined;
  inboxUnread: number;
  /** The folder shown, when it is one of this account's. */
  currentFolderId: string | null;
}) {
  const { account, folders, inboxUnread, currentFolderId } = props;
  const [expanded, setExpanded] = useState(true);
  const listId = `folders-${account.accountId}`;
  const ordered = orderFolders(folders ?? [], account.mailProperties.folderSeparator || '/');
  const label = account.label || account.emailAddress;
  // The name set in "Sender name…" when there is one, else the gateway's.
  const name = senderName(account);
  return (
    <section className="account-section" aria-label={label}>
      <button type="button" className="account-toggle" aria-expanded={expanded} aria-controls={listId} onClick={() => setExpanded((value) => !value)}>
        <Avatar name={name} email={account.emailAddress} hue={account.iconColor} size={28} />
        <span className="account-toggle-text">
          <span className="account-toggle-name">{name || label}</span>
          <span className="account-toggle-email">{account.emailAddress}</span>
        </span>
        {!expanded && <UnreadCount count={inboxUnread} />}
        <Icon name={expanded ? 'chevronDown' : 'chevronRight'} size={16} className="account-toggle-chevron" />
      </button>
      {expanded && (
        <ul id={listId} className="nav-list" aria-label={`Folders of ${label}`}>
          {/* Every IMAP account has at least INBOX: an empty list means the first sync has not listed them yet. */}
          {(folders === undefined || folders.length === 0) && <li className="nav-loading">Loading folders…</li>}
          {ordered.map(({ folder, depth, displayName }) => {
            const active = currentFolderId === folder.id;
            const unread = folder.specialUse === 'inbox' ? inboxUnread : folder.specialUse === 'sent' || folder.specialUse === 'drafts' || folder.specialUse === 'trash' ? 0 : folder.unread;
            return (
              <li key={folder.id}>
                <Link
                  to="/mail/$accountId/$folderId"
                  params={{ accountId: account.accountId, folderId: folder.id }}
                  search={{}}
                  className={active ? 'nav-item is-active' : 'nav-item'}
                  aria-current={active ? 'page' : undefined}
                  style={{ ['--depth' as string]: String(depth) }}
                >
                  <Icon name={folderIcon(folder.specialUse)} size={17} className="nav-icon" />
                  <span className="nav-label">{displayName}</span>
                  <UnreadCount count={unread} />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
});

export function Sidebar() {
  const accounts = useAtomValue(accountsAtom) ?? [];
  const folders = useAtomValue(foldersAtom);
  const unread = useAtomValue(inboxUnreadAtom);
  const current = useCurrentMailbox();
  const activeAccountId = useActiveAccountId();
  const totalUnread = accounts.reduce((sum, account) => sum + (unread[account.accountId] ?? 0), 0);
  const unifiedActive = current?.kind === 'unified' && current.role === 'inbox';
  return (
    <nav className="sidebar" aria-label="Mailboxes">
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
        <Icon name="compose" size={18} /> Compose
      </button>
      <div className="sidebar-scroll">
        <ul className="nav-list" aria-label="All accounts">
          <li>
            <Link
              to="/mail/unified/$role"
              params={{ role: 'inbox' }}
              search={{}}
              className={unifiedActive ? 'nav-item is-active' : 'nav-item'}
              aria-current={unifiedActive ? 'page' : undefined}
            >
              <Icon name="inboxes" size={17} className="nav-icon" />
              <span className="nav-label">{accounts.length > 1 ? 'All inboxes' : 'Inbox'}</span>
              <UnreadCount count={totalUnread} />
            </Link>
          </li>
        </ul>
        {accounts.map((account) => (
          <AccountFolders
            key={account.accountId}
            account={account}
            folders={folders[account.accountId]}
            inboxUnread={unread[account.accountId] ?? 0}
            currentFolderId={current?.kind === 'folder' && current.accountId === account.accountId ? current.folderId : null}
          />
        ))}
        <Link to="/login" search={{ add: '1' }} className="nav-item nav-add-account">
          <Icon name="plus" size={17} className="nav-icon" />
          <span className="nav-label">Add account</span>
        </Link>
      </div>
    </nav>
  );
}
