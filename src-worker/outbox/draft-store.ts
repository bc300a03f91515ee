/**
 * Drafts and sends in the outbox. A draft is saved locally at once (nothing typed is lost
 * on a closed tab) and reaches the gateway in order with the account's other commands;
 * consecutive saves of one draft that have not left yet collapse into the newest. The
 * gateway's id and version of each local draft are kept in JSONBlob `draft:<local id>`.
 */
import type { Schedule } from '../../shared/send-time';
import type { ComposeFields } from '../../shared/api/compose';
import type { DraftInput } from '../../shared/worker-mail-api';
import type { TernError } from '../../shared/errors';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';
import { nextSeq } from './action-store';
import { isDeliverable } from './held-recipients';
import { liveRows, OUTBOX_TABLE, type DiscardRow, type DraftRow, type SendRow } from '../mail-store/outbox-rows';

export interface DraftLink {
  /** The gateway's draft id, once created. */
  readonly serverId: string | null;
  /** The version the last save answered (the next save must name it). */
  readonly version: number | null;
}

const linkKey = (draftId: string) => `draft:${draftId}`;

export async function readDraftLink(tx: ReadTransaction<MailTable>, draftId: string): Promise<DraftLink> {
  const row = await tx.get('JSONBlob', linkKey(draftId));
  return { serverId: typeof row?.serverId === 'string' ? row.serverId : null, version: typeof row?.version === 'number' ? row.version : null };
}

export async function writeDraftLink(tx: WriteTransaction<MailTable>, draftId: string, link: DraftLink | null): Promise<void> {
  if (link) await tx.put('JSONBlob', { id: linkKey(draftId), ...link });
  else await tx.delete('JSONBlob', linkKey(draftId));
}

/**
 * A draft opened as the gateway now has it (no save of ours waiting): its next save builds
 * on that version. Without this, a draft changed on another device stayed one version
 * behind after "Use the other version", and every later save was refused as stale.
 */
export async function adoptGatewayVersion(tx: WriteTransaction<MailTable>, draftId: string, view: { readonly id: string; readonly version: number }): Promise<void> {
  const link = await readDraftLink(tx, draftId);
  if (link.serverId !== view.id || link.version === null || link.version === view.version) return;
  await writeDraftLink(tx, draftId, { serverId: view.id, version: view.version });
}

/**
 * What the gateway's draft and send routes take from a draft; `from` carries the display name (the gateway's default otherwise).
 * Recipients that are not valid addresses stay in the engine (held-recipients.ts).
 */
export function composeFieldsOf(draft: DraftInput, from?: DraftRow['from']): ComposeFields {
  return {
    ...(from ? { from: { name: from.name, email: from.email } } : {}),
    to: draft.to.filter(isDeliverable).map(({ name, email }) => ({ name, email })),
    cc: draft.cc.filter(isDeliverable).map(({ name, email }) => ({ name, email })),
    bcc: draft.bcc.filter(isDeliverable).map(({ name, email }) => ({ name, email })),
    subject: draft.subject,
    html: draft.html,
    ...(draft.inReplyToMessageId ? { inReplyTo: draft.inReplyToMessageId } : {}),
    attachmentIds: [...draft.attachmentIds],
  };
}

/**
 * The draft without the link a refusal names as gone — its parent message
 * (ParentMessageNotFound) or its uploaded files (FileNotFound; the gateway does not say
 * which) — or null when the refusal is of another kind or the link is not there to drop.
 */
export function withoutStaleLinks(draft: DraftInput, error: TernError): DraftInput | null {
  if (error.name === 'ParentMessageNotFound' && draft.inReplyToMessageId !== undefined) {
    const { inReplyToMessageId: _gone, ...rest } = draft;
    return rest;
  }
  if (error.name === 'FileNotFound' && draft.attachmentIds.length > 0) return { ...draft, attachmentIds: [] };
  return null;
}

/** A newer text of a parked or backing-off save is tried at once: the gateway may be back. */
const unparked = ({ retry_at: _parked, backoff_until: _backingOff, ...row }: DraftRow): DraftRow => row;

/** Records a save; a save of the same draft still waiting to leave is replaced instead. Returns the row. */
export async function recordDraftSave(
  tx: WriteTransaction<MailTable>,
  params: { accountId: string; commandId: string; draftId: string; draft: DraftInput; from?: DraftRow['from']; now: number },
): Promise<DraftRow> {
  const waiting = (await liveRows(tx)).find((row): row is DraftRow => row.kind === 'saveDraft' && row.draft_id === params.draftId && row.status === 'pending');
  const from = params.from ? { from: params.from } : {};
  const row: DraftRow = waiting
    ? { ...unparked(waiting), draft: params.draft, ...from }
    : {
        id: params.commandId,
        account_id: params.accountId,
        seq: await nextSeq(tx, params.now),
        status: 'pending',
        kind: 'saveDraft',
        draft_id: params.draftId,
        draft: params.draft,
        ...from,
        idempotency_key: params.commandId,
        attempts: 0,
        created_at: params.now,
      };
  await tx.put(OUTBOX_TABLE, row);
  return row;
}

/** What every new row of a draft's command starts with (pending, not tried yet, next in the account's order). */
async function newRow(tx: WriteTransaction<MailTable>, params: { accountId: string; commandId: string; draftId: string; now: number }, idempotencyKey: string) {
  return {
    id: params.commandId,
    account_id: params.accountId,
    seq: await nextSeq(tx, params.now),
    status: 'pending' as const,
    draft_id: params.draftId,
    idempotency_key: idempotencyKey,
    attempts: 0,
    created_at: params.now,
  };
}

/**
 * Records a discard: saves of the draft still waiting are dropped (nothing of it need reach
 * the gateway now); one already on the network finishes first, then the discard deletes it.
 */
export async function recordDiscard(tx: WriteTransaction<MailTable>, params: { accountId: string; commandId: string; draftId: string; now: number }): Promise<DiscardRow> {
  for (const row of await liveRows(tx)) {
    if (row.kind === 'saveDraft' && row.draft_id === params.draftId && row.status === 'pending') await tx.delete(OUTBOX_TABLE, row.id);
  }
  const row: DiscardRow = { ...(await newRow(tx, params, `discard:${params.commandId}`)), kind: 'discardDraft' };
  await tx.put(OUTBOX_TABLE, row);
  return row;
}

export async function recordSend(
  tx: WriteTransaction<MailTable>,
  params: { accountId: string; commandId: string; draftId: string; sendAt: number; now: number; subject?: string; resendOf?: string; holdMs?: number; schedule?: Schedule; requestReceipt?: boolean },
): Promise<SendRow> {
  // The gateway keeps the first outcome per key: a send repeated after a kill is not sent twice.
  const row: SendRow = {
    ...(await newRow(tx, params, `send:${params.commandId}`)),
    kind: 'send',
    send_at: params.sendAt,
    ...(params.subject !== undefined ? { subject: params.subject } : {}),
    ...(params.resendOf !== undefined ? { resend_of: params.resendOf } : {}),
    ...(params.holdMs ? { hold_ms: params.holdMs } : {}),
    ...(params.schedule ? { schedule: params.schedule } : {}),
    ...(params.requestReceipt ? { request_receipt: true } : {}),
  };
  await tx.put(OUTBOX_TABLE, row);
  return row;
}
