/** The mailbox routes: a unified special folder across accounts, one folder of one account, one account's label. */
import { getRouteApi } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useLocale, useT } from '../kit/i18n';
import { folderDisplayName } from '../state/folder-order';
import { accountsAtom, foldersAtom } from '../state/atoms';
import { useAccountLabels } from '../state/labels';
import { priorityAccountsAtom } from '../state/priority';
import { listScopeFor } from '../state/list-scope';
import { MailboxView } from './MailboxView';
import { NotFound } from './NotFound';
import { RedirectToInbox } from '../kit/Redirect';
import { unifiedRoleSchema } from '../state/search-params';

const mailRoute = getRouteApi('/mail');
const unifiedRoute = getRouteApi('/mail/unified/$role');
const folderRoute = getRouteApi('/mail/$accountId/$folderId');
const labelRoute = getRouteApi('/mail/$accountId/label/$label');

export function UnifiedMailbox() {
  const t = useT();
  const { role } = unifiedRoute.useParams();
  const search = mailRoute.useSearch();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const accountIds = useMemo(() => accounts.map((account) => account.accountId), [accounts]);
  const priorityAccounts = useAtomValue(priorityAccountsAtom);
  const parsed = unifiedRoleSchema.safeParse(role);
  if (!parsed.success) return <NotFound />;
  const scope = listScopeFor({ kind: 'unified', role: parsed.data }, search, accountIds, { accounts: priorityAccounts });
  const title = search.q ? t('app.searchResults') : accounts.length > 1 ? t('folders.allOf', { role: parsed.data }) : t(`folders.${parsed.data}`);
  return <MailboxView scope={scope} title={title} specialUse={parsed.data} folderId={null} />;
}

export function FolderMailbox() {
  const t = useT();
  const locale = useLocale();
  const { accountId, folderId } = folderRoute.useParams();
  const search = mailRoute.useSearch();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const folders = useAtomValue(foldersAtom)[accountId];
  const account = accounts.find((known) => known.accountId === accountId);
  const accountIds = useMemo(() => accounts.map((known) => known.accountId), [accounts]);
  const priorityAccounts = useAtomValue(priorityAccountsAtom);
  // An account logged out (here or in another tab) leaves its addresses: go to what is left.
  if (!account) return <RedirectToInbox />;
  const folder = folders?.find((known) => known.id === folderId);
  const scope = listScopeFor({ kind: 'folder', accountId, folderId }, search, accountIds, { accounts: priorityAccounts, inbox: folder?.specialUse === 'inbox' });
  const name = folder ? folderDisplayName(folder, account.mailProperties.folderSeparator || '/', locale) : '';
  return <MailboxView scope={scope} title={search.q ? t('app.searchResults') : name} specialUse={folder?.specialUse ?? null} folderId={folderId} />;
}

export function LabelMailbox() {
  const t = useT();
  const { accountId, label: keyword } = labelRoute.useParams();
  const search = mailRoute.useSearch();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const labels = useAccountLabels(accountId);
  const accountIds = useMemo(() => accounts.map((known) => known.accountId), [accounts]);
  if (!accounts.some((known) => known.accountId === accountId)) return <RedirectToInbox />;
  const label = labels.find((known) => known.keyword === keyword);
  const scope = listScopeFor({ kind: 'label', accountId, label: keyword }, search, accountIds);
  return <MailboxView scope={scope} title={search.q ? t('app.searchResults') : (label?.name ?? keyword)} specialUse={null} folderId={null} />;
}
