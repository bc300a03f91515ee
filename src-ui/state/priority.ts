/**
 * Priority inbox (issue 17 point 4) as the UI reads it: which accounts have it on (their
 * Inbox is listed with an Important section first) and whether a row is important.
 */
import { atom } from 'jotai';
import { hasImportantKeyword } from '../../shared/priority-score';
import type { ThreadRow } from '../../shared/worker-mail-api';
import { accountSettingsAtom } from './settings-atoms';

/** The accounts whose priority inbox is on (the preference `priorityInbox`), in id order. */
export const priorityAccountsAtom = atom((get) => {
  const settings = get(accountSettingsAtom) ?? {};
  return Object.values(settings)
    .filter((account) => account.preferences.priorityInbox)
    .map((account) => account.accountId)
    .sort();
});

/** A row of an important conversation: one of its messages has $Important. */
export const isImportantRow = (row: Pick<ThreadRow, 'keywords'>) => hasImportantKeyword(row.keywords);
