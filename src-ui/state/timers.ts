/**
 * Every account's snoozes, reminders and follow-ups as the engine last gave them, by row key
 * (`${accountId}:${threadId}`): the conversation's time bar and the Snoozed rows read it. One
 * feed (useTimersFeed, mounted once by the mail frame) keeps it live.
 */
import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo } from 'react';
import type { TimerKind } from '../../shared/api/timers';
import type { MessageId } from '../../shared/strings';
import type { TimerView } from '../../shared/worker-api';
import { useMailActions } from './actions-context';
import { accountsAtom } from './atoms';

const NONE: readonly TimerView[] = [];

/** A fired snooze, reminder or follow-up's mark (ThreadRow.raised), as rows and the conversation name it. */
export const RAISED_MARK_TEXT: Readonly<Record<TimerKind, MessageId>> = { snooze: 'timers.markSnooze', remind: 'timers.markRemind', followUp: 'timers.markFollowUp' };

export const timersByRowAtom = atom<ReadonlyMap<string, readonly TimerView[]>>(new Map());

/** The timers of one thread (its row key), soonest first. */
export function useThreadTimers(rowKey: string | null | undefined): readonly TimerView[] {
  const byRow = useAtomValue(timersByRowAtom);
  return (rowKey ? byRow.get(rowKey) : undefined) ?? NONE;
}

/** Loads every account's timers and follows their changes (any device, any tab). */
export function useTimersFeed(): void {
  const actions = useMailActions();
  const setTimers = useSetAtom(timersByRowAtom);
  const accounts = useAtomValue(accountsAtom);
  const accountIds = useMemo(() => (accounts ?? []).map((account) => account.accountId), [accounts]);
  useEffect(() => {
    if (accountIds.length === 0) return;
    let live = true;
    const load = async () => {
      const all = await actions.timers(accountIds).catch(() => null);
      if (!live || !all) return;
      const byRow = new Map<string, TimerView[]>();
      for (const timer of all) {
        const key = `${timer.accountId}:${timer.threadId}`;
        byRow.set(key, [...(byRow.get(key) ?? []), timer]);
      }
      setTimers(byRow);
    };
    void load();
    const stop = actions.watchTimers(() => void load());
    return () => {
      live = false;
      stop();
    };
  }, [actions, accountIds, setTimers]);
}
