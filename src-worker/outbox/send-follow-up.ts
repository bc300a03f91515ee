/**
 * Sends whose outcome was not final when POST /api/send answered: queued for a retry by the
 * gateway (202 queued/sending), or out but with the Sent copy still being filed (sentCopy
 * `pending`). Without a follow-up the engine took them as done, so a send the gateway gave
 * up later, or a Sent copy that failed every retry, was never told to anyone (issue points 1
 * and 4). Each is kept in JSONBlob `send-follow:<command id>` (it outlives the engine) and
 * asked again with GET /api/outbox/:id, with backoff, until it is final; then a send that
 * failed, may have gone out, or has no Sent copy leaves its notice (send-notices.ts).
 */
import type { SendResult } from '../../shared/api/compose';
import type { SendNotice } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';

const PREFIX = 'send-follow:';
/** First look after 5 s, doubling to one every 5 minutes. */
const FIRST_DELAY_MS = 5_000;
const MAX_DELAY_MS = 5 * 60_000;

export interface SendFollowUp {
  /** The send command's id (its notice, if any, is named after it). */
  readonly commandId: string;
  readonly accountId: string;
  readonly outboxId: string;
  readonly draftId: string;
  readonly subject: string;
  readonly attempts: number;
  /** Epoch ms of the next look. */
  readonly nextAt: number;
}

/** Whether the gateway's answer leaves something to learn later. */
export function needsFollowUp(result: SendResult): boolean {
  if (result.state === 'queued' || result.state === 'sending') return true;
  return (result.state === 'accepted' || result.state === 'sent') && result.sentCopy === 'pending';
}

/** What a final answer leaves for the person; null while it is not final. */
export function finalNotice(result: SendResult): { readonly kind: SendNotice['kind'] | null } | null {
  if (needsFollowUp(result)) return null;
  if (result.state === 'failed') return { kind: 'notSent' };
  if (result.state === 'unknown') return { kind: 'maybeSent' };
  return { kind: result.sentCopy === 'failed' ? 'notFiled' : null };
}

export const nextDelay = (attempts: number) => Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempts);

export async function writeFollowUp(tx: WriteTransaction<MailTable>, followUp: SendFollowUp): Promise<void> {
  await tx.put('JSONBlob', { id: PREFIX + followUp.commandId, ...followUp });
}

export async function deleteFollowUp(tx: WriteTransaction<MailTable>, commandId: string): Promise<void> {
  await tx.delete('JSONBlob', PREFIX + commandId);
}

export async function readFollowUps(tx: ReadTransaction<MailTable>): Promise<SendFollowUp[]> {
  const rows = await tx.getAll('JSONBlob', { range: { lower: PREFIX, upper: `${PREFIX}\uffff` } });
  return rows.map(({ id: _key, ...followUp }) => followUp as unknown as SendFollowUp).sort((a, b) => a.nextAt - b.nextAt);
}
