/**
 * The account's snoozes, reminders and follow-ups as its delta's `timers` document last gave
 * them (JSONBlob `thread-timers`): the Snoozed view's times, the conversation's "Remind me …"
 * line and the notifications read them here, written in the page's transaction.
 */
import type { TimersDoc } from '../../shared/api/timers';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';

const THREAD_TIMERS_KEY = 'thread-timers';

export async function readThreadTimers(tx: ReadTransaction<MailTable>): Promise<TimersDoc> {
  const row = (await tx.get('JSONBlob', THREAD_TIMERS_KEY)) as { doc?: TimersDoc } | undefined;
  return row?.doc ?? { timers: [] };
}

export async function writeThreadTimers(tx: WriteTransaction<MailTable>, doc: TimersDoc): Promise<void> {
  await tx.put('JSONBlob', { id: THREAD_TIMERS_KEY, doc });
}
