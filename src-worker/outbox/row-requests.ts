/**
 * What the gateway is asked for each kind of outbox row other than an action: a draft save
 * (create or update, by the draft's link), a discard, a send and what its answer means.
 * The sender (outbox-sender.ts) decides when, retries and settles; this only asks.
 */
import { TernError } from '../../shared/errors';
import type { SendNotice } from '../../shared/worker-mail-api';
import type { MailGateway, SendResult } from '../api/mail-gateway';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore, type WriteTransaction } from '../db/store';
import { MAIL_WRITE_TABLES } from '../mail-store/mail-writer';
import type { DiscardRow, DraftRow, SendRow } from '../mail-store/outbox-rows';
import { isTemporaryId } from '../model/temporary-id';
import { moveRevision } from './draft-revisions';
import { composeFieldsOf, readDraftLink, writeDraftLink } from './draft-store';
import { readHeld, writeHeld } from './held-recipients';
import { needsFollowUp } from './send-follow-up';

/** What a send's outcome leaves for the person, besides its status. */
export type SendOutcome = {
  readonly notice?: SendNotice['kind'];
  readonly error?: TernError;
  readonly outboxId?: string;
  /** Not final yet (queued by the gateway, or its Sent copy still being filed): asked again later (send-follow-up.ts). */
  readonly followUp?: string;
  /** The gateway only queued it (it retries itself): not sent yet, so not "done" either; its last error, if any. */
  readonly queued?: { readonly error?: TernError };
};

export interface RowRequestDeps {
  readonly store: () => Promise<LocalStore<MailTable>>;
  readonly gateway: Pick<MailGateway, 'createDraft' | 'updateDraft' | 'getDraft' | 'send' | 'deleteDraft' | 'resendOutbox'>;
  /** Asks the sync for the delta that shows the result (a message in Sent, a draft gone). */
  readonly requestPull: () => void;
}

export function createRowRequests(deps: RowRequestDeps) {
  const write = async (body: (tx: WriteTransaction<MailTable>) => Promise<void>) => withWrite(await deps.store(), MAIL_WRITE_TABLES, body);

  const saveDraft = async (row: DraftRow) => {
    const link = await withRead(await deps.store(), ['JSONBlob'], (tx) => readDraftLink(tx, row.draft_id));
    const fields = composeFieldsOf(row.draft, row.from);
    let saved;
    if (link.serverId === null && row.draft_id.startsWith('local-')) {
      try {
        saved = await deps.gateway.createDraft({ ...fields, version: 0, clientId: row.draft_id });
      } catch (error) {
        // A create repeated after a kill: the gateway names the draft it made the first time.
        const earlier = error instanceof TernError && error.name === 'DraftAlreadyCreated' ? (error.detail as { id?: string; version?: number }) : null;
        if (!earlier?.id || earlier.version === undefined) throw error;
        saved = await deps.gateway.updateDraft(earlier.id, { ...fields, version: earlier.version });
      }
    } else {
      const serverId = link.serverId ?? row.draft_id;
      const version = link.version ?? (await deps.gateway.getDraft(serverId)).version;
      saved = await deps.gateway.updateDraft(serverId, { ...fields, version });
    }
    await write(async (tx) => {
      await writeDraftLink(tx, row.draft_id, { serverId: saved.id, version: saved.version });
      // Tabs that open it from Drafts know it by the gateway's id: its revision goes there.
      if (isTemporaryId(row.draft_id)) await moveRevision(tx, row.draft_id, saved.id);
      // Reopened from Drafts, the draft goes by the gateway's id: its invalid recipients too.
      if (saved.id !== row.draft_id) await writeHeld(tx, saved.id, await readHeld(tx, row.draft_id));
    });
  };

  /** Deletes a discarded draft from the gateway (and so from Drafts); one it never got, or already deleted, is done. */
  const discard = async (row: DiscardRow) => {
    const link = await withRead(await deps.store(), ['JSONBlob'], (tx) => readDraftLink(tx, row.draft_id));
    const serverId = link.serverId ?? (row.draft_id.startsWith('local-') ? null : row.draft_id);
    if (serverId !== null) {
      try {
        await deps.gateway.deleteDraft(serverId);
      } catch (error) {
        if (!(error instanceof TernError && error.name === 'DraftDoesNotExist')) throw error;
      }
      deps.requestPull(); // its message leaves Drafts through delta
    }
    await write(async (tx) => {
      await writeDraftLink(tx, row.draft_id, null);
      for (const id of new Set([row.draft_id, serverId ?? row.draft_id])) await writeHeld(tx, id, { to: [], cc: [], bcc: [] });
    });
  };

  const send = async (row: SendRow): Promise<SendOutcome> => {
    if (row.resend_of !== undefined) return outcomeOf(await deps.gateway.resendOutbox(row.resend_of));
    const link = await withRead(await deps.store(), ['JSONBlob'], (tx) => readDraftLink(tx, row.draft_id));
    const serverId = link.serverId ?? (row.draft_id.startsWith('local-') ? null : row.draft_id);
    if (serverId === null) throw new TernError('DraftDoesNotExist', { detail: { draftId: row.draft_id } });
    return outcomeOf(
      await deps.gateway.send({
        idempotencyKey: row.idempotency_key,
        draftId: serverId,
        ...(link.version !== null && link.serverId !== null ? { draftVersion: link.version } : {}),
        // The gateway holds it (undo from any tab, the tab may close) or keeps it until its time.
        ...(row.schedule ? { schedule: row.schedule } : row.hold_ms ? { holdMs: row.hold_ms } : {}),
        ...(row.request_receipt ? { requestReceipt: true } : {}),
      }),
    );
  };

  /** What a send's answer means for the person. */
  const outcomeOf = (result: SendResult): SendOutcome => {
    if (result.state === 'failed') throw new TernError('SendFailed', { detail: { reason: result.lastError } });
    deps.requestPull(); // the message shows in Sent through delta
    // Cut off after the message went to the mail server, before its answer: never sent again on its own.
    if (result.state === 'unknown') {
      return { notice: 'maybeSent', outboxId: result.outboxId, ...(result.lastError ? { error: new TernError('SendFailed', { detail: { reason: result.lastError } }) } : {}) };
    }
    if (result.sentCopy === 'failed') return { notice: 'notFiled' };
    // Scheduled: the gateway's now (the Scheduled list follows it through delta); nothing to ask it until its time.
    if (result.scheduled && result.state === 'queued') return {};
    if (!needsFollowUp(result)) return {};
    const queued = result.state === 'queued' || result.state === 'sending';
    const lastError = result.lastError ? new TernError('SendFailed', { detail: { reason: result.lastError } }) : undefined;
    return { followUp: result.outboxId, ...(queued ? { queued: lastError ? { error: lastError } : {} } : {}) };
  };

  return { saveDraft, discard, send };
}
