/**
 * Sends the person must hear about (shared SendNotice): may have been sent, not sent, or
 * sent without a copy in Sent. A toast would die with its tab; these live in the account's
 * database (JSONBlob `send-notice:<id>`) until the person dismisses them, so a reload, a
 * closed tab or another tab still shows them.
 */
import type { TernError } from '../../shared/errors';
import type { CommandStatus, SendNotice } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';

const PREFIX = 'send-notice:';

/** The mail server's own words in a failure (SendFailed's `detail.reason`), for the person to read. */
function serverReplyOf(error: TernError): string | undefined {
  const reason = (error.detail as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' && reason !== 'unknown' ? reason : undefined;
}

/** A failure as tabs see it: the catalogue name, its sentence, and the server's reply when there is one. */
export const errorOf = (error: TernError): NonNullable<CommandStatus['error']> => {
  const detail = serverReplyOf(error);
  return { name: error.name, message: error.message, ...(detail ? { detail } : {}) };
};

export async function readSendNotices(tx: ReadTransaction<MailTable>): Promise<SendNotice[]> {
  const rows = await tx.getAll('JSONBlob', { range: { lower: PREFIX, upper: `${PREFIX}\uffff` } });
  return rows.map(({ id: _key, ...notice }) => notice as unknown as SendNotice).sort((a, b) => a.at - b.at);
}

export async function readSendNotice(tx: ReadTransaction<MailTable>, noticeId: string): Promise<SendNotice | undefined> {
  const row = await tx.get('JSONBlob', PREFIX + noticeId);
  if (!row) return undefined;
  const { id: _key, ...notice } = row;
  return notice as unknown as SendNotice;
}

/** One notice per send command: a later outcome of the same send replaces the earlier. */
export async function writeSendNotice(tx: WriteTransaction<MailTable>, notice: SendNotice): Promise<void> {
  await tx.put('JSONBlob', { id: PREFIX + notice.noticeId, ...notice });
}

export async function deleteSendNotice(tx: WriteTransaction<MailTable>, noticeId: string): Promise<void> {
  await tx.delete('JSONBlob', PREFIX + noticeId);
}
