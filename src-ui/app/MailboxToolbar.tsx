/**
 * The mailbox's toolbar with what it shows about the list: counts, the targets' state, the
 * folders they can move to and the labels they can have (MailboxView.tsx).
 */
import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { labelsOf } from '../../shared/labels';
import { hasImportantKeyword } from '../../shared/priority-score';
import type { FolderView, ThreadRow } from '../../shared/worker-mail-api';
import { useLocale, useT } from '../kit/i18n';
import { accountsAtom, allInScopeSelectedAtom, foldersAtom, selectionAtom, visibleListAtom } from '../state/atoms';
import { useAccountLabels } from '../state/labels';
import type { ThreadCommand } from '../state/mail-actions';
import { indexOfKey, rowAt, type HeldList } from '../state/thread-list/list-patch';
import { groupByAccount, type ThreadRef } from '../state/thread-list/selection';
import { resolveTargets } from '../state/thread-list/targets';
import { EmptyFolderDialog, roleName, type EmptyTarget } from '../toolbar/EmptyFolderDialog';
import { commonMoveTargets, moveTargets, type MoveTarget } from '../toolbar/move-menu';
import { Toolbar } from '../toolbar/Toolbar';

export const rowByKey = (held: HeldList | null, key: string): ThreadRow | undefined => rowAt(held, indexOfKey(held, key));

/**
 * The toolbar with what it shows about the list (counts, the targets' state). Its own
 * component, so list and selection changes re-render it and the list, not the mailbox.
 */
export function MailboxToolbar(props: {
  title: string;
  openKey: string | null;
  folderId: string | null;
  specialUse: FolderView['specialUse'];
  moveOpenSignal: number;
  /** What `v` opened the "Move to" menu for (the cursor's row with nothing checked), while it is open. */
  keyMoveTargets: readonly ThreadRef[] | null;
  onMoveMenuOpenChange: (open: boolean) => void;
  /** Opens "Label as" (the `l` key), for `keyMoveTargets` when set. */
  labelOpenSignal: number;
  onRun: (command: ThreadCommand) => void;
  onSelectAll: (select: boolean) => void;
  /** The list's accounts: with the whole list selected, "Move to" needs it to be one. */
  scopeAccounts: readonly string[];
}) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const { openKey, folderId, specialUse } = props;
  const held = useAtomValue(visibleListAtom).held;
  const selection = useAtomValue(selectionAtom);
  const allInScope = useAtomValue(allInScopeSelectedAtom);
  const folders = useAtomValue(foldersAtom);
  const accounts = useAtomValue(accountsAtom) ?? [];
  const toolbarTargets = props.keyMoveTargets ?? resolveTargets({ held, selection, openKey, cursor: null, listShown: true });
  const targetRows = toolbarTargets.map((ref) => rowByKey(held, ref.key));
  const anyUnread = targetRows.some((row) => (row?.unreadCount ?? 0) > 0);
  const allStarred = targetRows.length > 0 && targetRows.every((row) => row?.starred);
  const allImportant = targetRows.length > 0 && targetRows.every((row) => hasImportantKeyword(row?.keywords));
  const targetAccounts = allInScope ? props.scopeAccounts : [...groupByAccount(toolbarTargets).keys()];
  const targetKey = targetAccounts.join(',');
  const [emptying, setEmptying] = useState(false);
  const emptyRole = specialUse === 'trash' || specialUse === 'junk' ? specialUse : null;
  // Each account of the mailbox that has a Trash (or Spam).
  const emptyTargets: readonly EmptyTarget[] = emptyRole
    ? props.scopeAccounts.flatMap((accountId) => {
        const folder = (folders[accountId] ?? []).find((candidate) => candidate.specialUse === emptyRole);
        const email = accounts.find((account) => account.accountId === accountId)?.emailAddress ?? '';
        return folder ? [{ accountId, email }] : [];
      })
    : [];
  const emptyTotal = held?.total ?? 0;
  // "Label as" offers one account's labels: the targets' (or the whole list's) single account.
  const labelAccount = targetAccounts.length === 1 ? targetAccounts[0]! : null;
  const accountLabels = useAccountLabels(labelAccount);
  const labelChoices = labelAccount
    ? accountLabels.map((label) => ({ label, all: !allInScope && targetRows.length > 0 && targetRows.every((row) => labelsOf(row?.keywords, [label]).length > 0) }))
    : null;
  const moveFolders = useMemo((): readonly MoveTarget[] | null => {
    const ids = targetKey ? targetKey.split(',') : [];
    const of = (accountId: string) => ({ accountId, folders: folders[accountId] ?? [], separator: accounts.find((known) => known.accountId === accountId)?.mailProperties.folderSeparator || '/' });
    if (ids.length === 1) {
      const one = of(ids[0]!);
      // A unified mailbox's own folder is no place to move to either.
      return moveTargets(one.folders, one.separator, folderId).filter(({ folder }) => folderId !== null || specialUse === null || folder.specialUse !== specialUse);
    }
    // Several accounts: folders they all have, each thread to its own account's (move-menu.ts). Not for
    // "all N selected", whose engine run moves one account's list.
    if (ids.length === 0 || allInScope) return null;
    return commonMoveTargets(ids.map(of), specialUse);
  }, [targetKey, folders, accounts, folderId, specialUse, allInScope]);
  return (
    <>
      <Toolbar
        title={props.title}
        total={held?.total ?? 0}
        totalKnown={held?.complete ?? false}
        selectedCount={allInScope ? (held?.total ?? 0) : selection.size}
        loadedCount={held?.rows.length ?? 0}
        targetCount={allInScope ? (held?.total ?? 0) : toolbarTargets.length}
        anyUnread={anyUnread}
        allStarred={allStarred}
        allImportant={allImportant}
        moveFolders={moveFolders}
        deleteForever={specialUse === 'trash'}
        inSpam={specialUse === 'junk'}
        moveOpenSignal={props.moveOpenSignal}
        onMoveMenuOpenChange={props.onMoveMenuOpenChange}
        labelChoices={labelChoices}
        labelOpenSignal={props.labelOpenSignal}
        onManageLabels={() => void navigate({ to: '/settings/$page', params: { page: 'labels' } })}
        onRun={props.onRun}
        onSelectAll={props.onSelectAll}
        empty={
          emptyRole && emptyTargets.length > 0
            ? { label: t('toolbar.emptyNow', { folder: roleName(emptyRole, locale) }), disabled: !held?.complete || emptyTotal === 0, onClick: () => setEmptying(true) }
            : null
        }
      />
      {emptying && emptyRole && <EmptyFolderDialog role={emptyRole} targets={emptyTargets} total={emptyTotal} onClose={() => setEmptying(false)} />}
    </>
  );
}

