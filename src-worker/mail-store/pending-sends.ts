/**
 * The sends the gateway holds for this account (undo windows and scheduled sends), as its
 * delta's `scheduled` document last gave them (JSONBlob `pending-sends`): the Scheduled list
 * and every tab's undo toast read them here, written in the page's transaction.
 */
import type { PendingSends } from '../../shared/api/compose';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';

const PENDING_SENDS_KEY = 'pending-sends';

export async function readPendingSends(tx: ReadTransaction<MailTable>): Promise<PendingSends> {
  const row = (await tx.get('JSONBlob', PENDING_SENDS_KEY)) as { doc?: PendingSends } | undefined;
  return row?.doc ?? { sends: [] };
}

export async function writePendingSends(tx: WriteTransaction<MailTable>, doc: PendingSends): Promise<void> {
  await tx.put('JSONBlob', { id: PENDING_SENDS_KEY, doc });
}
