/**
 * Starts "keep recent mail offline" in the background when this browser chose it: once a
 * few seconds after the mail screen is up (the first screen and the sync go first), and
 * again when an account is added or the choice is turned on. Renders nothing.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useSyncExternalStore } from 'react';
import { useMailActions } from '../state/actions-context';
import { accountsAtom } from '../state/atoms';
import { keepOfflineChosen, runKeepOffline, subscribeToOffline } from './keep-offline';

const START_DELAY_MS = 5_000;

export function OfflineKeeper() {
  const actions = useMailActions();
  const chosen = useSyncExternalStore(subscribeToOffline, keepOfflineChosen, () => false);
  const accountKey = (useAtomValue(accountsAtom) ?? []).map((account) => account.accountId).join(',');
  useEffect(() => {
    if (!chosen || !accountKey) return;
    const timer = setTimeout(() => void runKeepOffline(actions.keepOffline, accountKey.split(',')), START_DELAY_MS);
    return () => clearTimeout(timer);
  }, [chosen, accountKey, actions]);
  return null;
}
