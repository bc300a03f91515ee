/** The account switcher: every account, add another, log out of one or all. */
import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { senderName } from '../../shared/account';
import { Avatar } from '../kit/Avatar';
import { useActiveAccountId } from '../state/current-mailbox';
import { MenuButton, type MenuEntry } from '../kit/Menu';
import { useMailActions } from '../state/actions-context';
import { accountsAtom, inboxUnreadAtom } from '../state/atoms';
import { LogoutDialog, type LogoutQuestion } from './LogoutDialog';
import { useSwitchAccount } from '../state/switch-account';
import { useT } from '../kit/i18n';

export function AccountMenu() {
  const t = useT();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const unread = useAtomValue(inboxUnreadAtom);
  const activeId = useActiveAccountId();
  const actions = useMailActions();
  const navigate = useNavigate();
  const switchTo = useSwitchAccount();
  const [question, setQuestion] = useState<LogoutQuestion | null>(null);
  const active = accounts.find((account) => account.accountId === activeId);
  if (!active) return null;

  const afterLogout = () => {
    // The last account: straight to the login screen (the root layout would send it there
    // too, but this navigation must not race it back to a mailbox).
    if (accounts.length <= 1) void navigate({ to: '/login', search: {}, replace: true });
    else void navigate({ to: '/mail/unified/$role', params: { role: 'inbox' }, search: {} });
  };

  /** Logs out at once, or first asks when unsent work would go with the account's data (LogoutDialog.tsx). */
  const askThenLogOut = async (accountIds: readonly string[], email: string | null, logOut: () => Promise<void>) => {
    const unsent = await actions.unsentDrafts(accountIds);
    if (unsent > 0) setQuestion({ email, unsent, logOut });
    else await logOut().catch(() => undefined);
  };
  const logOutActive = () => actions.logout(active.accountId).then(afterLogout);
  const logOutAll = () => actions.logoutAll();

  const entries: MenuEntry[] = [
    {
      kind: 'group',
      id: 'accounts',
      label: t('toolbar.switchAccount'),
      items: accounts.map((account) => {
        const count = unread[account.accountId] ?? 0;
        return {
          id: account.accountId,
          // The name chosen in "Sender name…" when there is one (the gateway's `name` alone went stale after a rename).
          label: senderName(account) || account.emailAddress,
          description: `${account.emailAddress}${count > 0 ? ` · ${count} unread` : ''}`,
          checked: account.accountId === activeId,
          onSelect: () => switchTo(account.accountId),
        };
      }),
    },
    { kind: 'separator', id: 'separator' },
    { kind: 'item', id: 'add', label: t('toolbar.addAnotherAccount'), icon: 'plus', onSelect: () => void navigate({ to: '/login', search: { add: '1' } }) },
    // The app download page (spec §2): install on a computer or phone, and the default mail app.
    { kind: 'item', id: 'apps', label: t('device.appsMenu'), icon: 'phone', onSelect: () => void navigate({ to: '/settings/$page', params: { page: 'apps' } }) },
    {
      kind: 'item',
      id: 'logout',
      label: t('toolbar.logOutOf', { email: active.emailAddress }),
      icon: 'logout',
      onSelect: () => void askThenLogOut([active.accountId], active.emailAddress, logOutActive),
    },
  ];
  if (accounts.length > 1) {
    const allIds = accounts.map((account) => account.accountId);
    entries.push({ kind: 'item', id: 'logout-all', label: t('toolbar.logOutOfAll'), icon: 'logout', onSelect: () => void askThenLogOut(allIds, null, logOutAll) });
  }

  return (
    <>
      <MenuButton label={t('toolbar.accountLabel', { email: active.emailAddress })} className="account-button" entries={entries} menuClassName="account-menu">
        <Avatar name={senderName(active)} email={active.emailAddress} hue={active.iconColor} size={32} />
      </MenuButton>
      {question && <LogoutDialog question={question} onClose={() => setQuestion(null)} />}
    </>
  );
}
