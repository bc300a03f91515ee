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
import type { Clock } from '../../shared/clock';
import { TernError } from '../../shared/errors';
import type { SendNotice } from '../../shared/worker-mail-api';
import type { MailGateway } from '../api/mail-gateway';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore, type ReadTransaction, type WriteTransaction } from '../db/store';
import { backoffDelay } from '../net/backoff';
import type { CommandStatusFeed } from './command-status-feed';
import { markSending } from './draft-revisions';
import { writeDraftLink } from './draft-store';
import { errorOf, writeSendNotice } from './send-notices';

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
  /** The gateway had only queued it: its send is still "pending" for the tabs, so its end is told either way. */
  readonly queued?: boolean;
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

/** The wait before asking again after `attempts` answers that were not final. */
export const nextDelay = (attempts: number) => backoffDelay(attempts + 1, { baseMs: FIRST_DELAY_MS, maxMs: MAX_DELAY_MS });

export async function writeFollowUp(tx: WriteTransaction<MailTable>, followUp: SendFollowUp): Promise<void> {
  await tx.put('JSONBlob', { id: PREFIX + followUp.commandId, ...followUp });
}

export async function deleteFollowUp(tx: WriteTransaction<MailTable>, commandId: string): Promise<void> {
  await tx.delete('JSONBlob', PREFIX + commandId);
}

export async function readFollowUp(tx: ReadTransaction<MailTable>, commandId: string): Promise<SendFollowUp | undefined> {
  const row = (await tx.get('JSONBlob', PREFIX + commandId)) as (SendFollowUp & { id: string }) | undefined;
  if (!row) return undefined;
  const { id: _key, ...followUp } = row;
  return followUp;
}

export async function readFollowUps(tx: ReadTransaction<MailTable>): Promise<SendFollowUp[]> {
  const rows = await tx.getAll('JSONBlob', { range: { lower: PREFIX, upper: `${PREFIX}\uffff` } });
  return rows.map(({ id: _key, ...followUp }) => followUp as unknown as SendFollowUp).sort((a, b) => a.nextAt - b.nextAt);
}

export interface FollowUpDeps {
  readonly accountId: string;
  readonly store: () => Promise<LocalStore<MailTable>>;
  readonly gateway: Pick<MailGateway, 'outboxStatus'>;
  readonly statuses: CommandStatusFeed;
  /** Asks the sync for the delta that shows the message in Sent. */
  readonly requestPull: () => void;
  readonly clock: Clock;
  /** The outbox's one timer: a pass runs again at `at`. */
  readonly wakeAt: (at: number) => void;
  readonly stopped: () => boolean;
}

/** The follow-ups of one account's outbox; `run` is called at the end of each of its passes. */
export function createFollowUps(deps: FollowUpDeps): { run(): Promise<void> } {
  const { clock } = deps;
  const write = async (body: (tx: WriteTransaction<MailTable>) => Promise<void>) => withWrite(await deps.store(), ['JSONBlob'], body);

  const later = async (item: SendFollowUp) => {
    const attempts = item.attempts + 1;
    const nextAt = clock.now() + nextDelay(attempts);
    await write((tx) => writeFollowUp(tx, { ...item, attempts, nextAt }));
    deps.wakeAt(nextAt);
  };

  const settle = async (item: SendFollowUp, result: SendResult, kind: SendNotice['kind'] | null) => {
    const cause = result.lastError ? new TernError('SendFailed', { detail: { reason: result.lastError } }) : result.state === 'failed' ? new TernError('SendFailed') : undefined;
    await write(async (tx) => {
      await deleteFollowUp(tx, item.commandId);
      // Failed: the draft is the person's to edit again; gone out: it is no draft any more.
      if (result.state === 'failed') await markSending(tx, item.draftId, false);
      else if (result.state !== 'unknown') await writeDraftLink(tx, item.draftId, null);
      if (kind) {
        await writeSendNotice(tx, {
          noticeId: item.commandId,
          accountId: item.accountId,
          kind,
          draftId: item.draftId,
          subject: item.subject,
          at: clock.now(),
          ...(cause ? { error: errorOf(cause) } : {}),
          outboxId: item.outboxId,
        });
      }
    });
    deps.requestPull();
    if (!kind && !item.queued) return;
    deps.statuses.publish({
      commandId: item.commandId,
      accountId: item.accountId,
      kind: 'send',
      status: result.state === 'failed' ? 'failed' : 'done',
      draftId: item.draftId,
      ...(kind ? { notice: kind } : {}),
      ...(cause && result.state === 'failed' ? { error: errorOf(cause) } : {}),
    });
  };

  const cancelled = async (item: SendFollowUp) => {
    await write(async (tx) => {
      await deleteFollowUp(tx, item.commandId);
      await markSending(tx, item.draftId, false);
    });
    deps.requestPull();
    deps.statuses.publish({ commandId: item.commandId, accountId: item.accountId, kind: 'send', status: 'cancelled', draftId: item.draftId });
  };

  return {
    async run() {
      for (const item of await withRead(await deps.store(), ['JSONBlob'], readFollowUps)) {
        if (deps.stopped()) return;
        if (item.nextAt > clock.now()) {
          deps.wakeAt(item.nextAt); // sorted: the rest are later still
          return;
        }
        let result: SendResult;
        try {
          result = await deps.gateway.outboxStatus(item.outboxId);
        } catch {
          await later(item); // the network or the gateway: asked again later, like a pending answer
          continue;
        }
        // Taken back on the gateway (Undo or Cancel on another device): the draft is the person's again.
        if (result.state === 'cancelled') {
          await cancelled(item);
          continue;
        }
        const final = finalNotice(result);
        if (final) await settle(item, result, final.kind);
        else await later(item);
      }
    },
  };
}
