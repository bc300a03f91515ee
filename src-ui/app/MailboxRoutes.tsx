/** The two mailbox routes: a unified special folder across accounts, and one folder of one account. */
import { getRouteApi } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useLocale, useT } from '../kit/i18n';
import { folderDisplayName } from '../state/folder-order';
import { accountsAtom, foldersAtom } from '../state/atoms';
import { listScopeFor } from './list-scope';
import { MailboxView } from './MailboxView';
import { NotFound } from './NotFound';
import { RedirectToInbox } from '../kit/Redirect';
import { unifiedRoleSchema } from './search-params';

const mailRoute = getRouteApi('/mail');
const unifiedRoute = getRouteApi('/mail/unified/$role');
const folderRoute = getRouteApi('/mail/$accountId/$folderId');

export function UnifiedMailbox() {
  const t = useT();
  const { role } = unifiedRoute.useParams();
  const search = mailRoute.useSearch();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const accountIds = useMemo(() => accounts.map((account) => account.accountId), [accounts]);
  const parsed = unifiedRoleSchema.safeParse(role);
  if (!parsed.success) return <NotFound />;
  const scope = listScopeFor({ kind: 'unified', role: parsed.data }, search, accountIds);
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
  // An account logged out (here or in another tab) leaves its addresses: go to what is left.
  if (!account) return <RedirectToInbox />;
  const folder = folders?.find((known) => known.id === folderId);
  const scope = listScopeFor({ kind: 'folder', accountId, folderId }, search, accountIds);
  const name = folder ? folderDisplayName(folder, account.mailProperties.folderSeparator || '/', locale) : '';
  return <MailboxView scope={scope} title={search.q ? t('app.searchResults') : name} specialUse={folder?.specialUse ?? null} folderId={folderId} />;
}
