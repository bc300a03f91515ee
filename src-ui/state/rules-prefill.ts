/**
 * "Filter messages like this" (the open message's menu) hands the Filters page a new filter's
 * conditions taken from the message; the page takes it once and clears it.
 */
import { atom } from 'jotai';
import type { MessageView } from '../../shared/worker-mail-api';

export interface FilterPrefill {
  readonly accountId: string;
  readonly from: string | null;
  readonly subject: string | null;
  readonly listId: string | null;
}

export const filterPrefillAtom = atom<FilterPrefill | null>(null);

/** What a new filter takes from a message: its sender and its subject without Re:/Fwd:. */
export function filterPrefillOf(message: Pick<MessageView, 'accountId' | 'from' | 'subject'>): FilterPrefill {
  const subject = message.subject.replace(/^\s*((re|fwd?|aw|wg)\s*:\s*)+/i, '').trim();
  return { accountId: message.accountId, from: message.from[0]?.email.toLowerCase() ?? null, subject: subject || null, listId: null };
}
