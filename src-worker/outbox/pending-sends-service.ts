/**
 * Sends the gateway holds (issue 15 points 1–2): an undo window runs on the gateway, not in
 * this engine, so a closed tab neither loses nor double-sends, and any tab — any device —
 * may take it back; a scheduled send waits there until its time. This engine hands the send
 * over at once (outbox-sender.ts), keeps the gateway's list of waiting sends (delta's
 * `scheduled` document, mail-store/pending-sends.ts) and asks the gateway to undo or cancel.
 */
import type { CancelledSend } from '../../shared/api/compose';
import { TernError } from '../../shared/errors';
import type { CommandStatus, PendingSendView } from '../../shared/worker-mail-api';
import type { MailGateway } from '../api/mail-gateway';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../db/store';
import { OUTBOX_TABLE, type OutboxRow } from '../mail-store/outbox-rows';
import { readPendingSends, writePendingSends } from '../mail-store/pending-sends';
import { pendingSendParamsSchema, pendingSendsParamsSchema } from './command-params';
import { markSending } from './draft-revisions';
import { deleteFollowUp, readFollowUp } from './send-follow-up';
import { parseParams } from '../queries/query-params';
import { TabWatchers } from '../queries/tab-watchers';

export interface PendingSendsDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly gateway: (accountId: string) => Promise<Pick<MailGateway, 'undoOutbox' | 'pendingSends' | 'cancelScheduled' | 'deleteScheduled'>>;
  readonly accountIds: () => Promise<readonly string[]>;
  /** Resolves when the account's outbox pass under way (a send being handed over) has ended. */
  readonly outboxIdle: (accountId: string) => Promise<void>;
  readonly publish: (status: CommandStatus) => void;
}

/** Where a send to undo stands in this engine. */
type Found = { kind: 'local'; draftId: string } | { kind: 'handing' } | { kind: 'gateway'; outboxId: string; draftId: string } | { kind: 'gone' };

export class PendingSendsService {
  private readonly watchers = new TabWatchers<string>();

  constructor(private readonly deps: PendingSendsDeps) {}

  /**
   * Undo: a send not handed over yet is dropped here; one being handed over is waited for;
   * one the gateway holds is taken back there (false: SendAlreadyLeft, it has gone).
   */
  async undo(commandId: string): Promise<boolean> {
    for (const accountId of await this.deps.accountIds()) {
      let found = await this.find(accountId, commandId);
      // The request is under way: its answer names the gateway's row (or its failure ends it).
      if (found?.kind === 'handing') {
        await this.deps.outboxIdle(accountId);
        found = await this.find(accountId, commandId);
      }
      if (found === null) continue;
      if (found.kind === 'local') {
        this.deps.publish({ commandId, accountId, kind: 'send', status: 'cancelled', draftId: found.draftId });
        return true;
      }
      if (found.kind !== 'gateway') return false;
      try {
        await (await this.deps.gateway(accountId)).undoOutbox(found.outboxId);
      } catch (error) {
        if (error instanceof TernError && error.name === 'SendAlreadyLeft') return false;
        throw error;
      }
      const { draftId } = found;
      await withWrite(await this.deps.open(accountId), ['JSONBlob'], async (tx) => {
        await deleteFollowUp(tx, commandId);
        await markSending(tx, draftId, false);
      });
      this.deps.publish({ commandId, accountId, kind: 'send', status: 'cancelled', draftId });
      this.changed(accountId);
      return true;
    }
    return false;
  }

  /** The send of `commandId` in the account: null when the account never had it. */
  private async find(accountId: string, commandId: string): Promise<Found | null> {
    // The outbox marks a send "sending" in its own transaction before the request: whichever commits first wins.
    return withWrite(await this.deps.open(accountId), [OUTBOX_TABLE, 'JSONBlob'], async (tx): Promise<Found | null> => {
      const row = (await tx.get(OUTBOX_TABLE, commandId)) as OutboxRow | undefined;
      if (row && row.kind !== 'send') return { kind: 'gone' };
      if (row?.status === 'pending') {
        await tx.delete(OUTBOX_TABLE, commandId);
        await markSending(tx, row.draft_id, false);
        return { kind: 'local', draftId: row.draft_id };
      }
      if (row?.status === 'sending') return { kind: 'handing' };
      if (row) return { kind: 'gone' };
      const followUp = await readFollowUp(tx, commandId);
      return followUp ? { kind: 'gateway', outboxId: followUp.outboxId, draftId: followUp.draftId } : null;
    });
  }

  async list(params: { accountIds: readonly string[] }): Promise<readonly PendingSendView[]> {
    const { accountIds } = parseParams(pendingSendsParamsSchema, params);
    const known = new Set(await this.deps.accountIds());
    const lists = await Promise.all(
      accountIds.filter((id) => known.has(id)).map(async (accountId) => (await withRead(await this.deps.open(accountId), ['JSONBlob'], readPendingSends)).sends.map((send) => ({ ...send, accountId }))),
    );
    return lists.flat().sort((a, b) => a.sendAt - b.sendAt);
  }

  async cancel(params: { accountId: string; outboxId: string }): Promise<{ draftId: string | null }> {
    const { accountId, outboxId } = parseParams(pendingSendParamsSchema, params);
    const cancelled = await (await this.deps.gateway(accountId)).cancelScheduled(outboxId);
    if (cancelled.draftId !== null) await withWrite(await this.deps.open(accountId), ['JSONBlob'], (tx) => markSending(tx, cancelled.draftId!, false));
    await this.refresh(accountId, cancelled);
    return { draftId: cancelled.draftId };
  }

  async remove(params: { accountId: string; outboxId: string }): Promise<void> {
    const { accountId, outboxId } = parseParams(pendingSendParamsSchema, params);
    await this.refresh(accountId, await (await this.deps.gateway(accountId)).deleteScheduled(outboxId));
  }

  /** The list as the gateway has it now (its delta says so too, a moment later). */
  private async refresh(accountId: string, cancelled: CancelledSend): Promise<void> {
    const gateway = await this.deps.gateway(accountId);
    const doc = await gateway.pendingSends().catch(() => null);
    if (doc) await withWrite(await this.deps.open(accountId), ['JSONBlob'], (tx) => writePendingSends(tx, { sends: doc.sends.filter((send) => send.outboxId !== cancelled.outboxId) }));
    this.changed(accountId);
  }

  /** The account's pending sends changed (a delta page, or a change made here): every tab hears it. */
  changed(accountId: string): void {
    this.watchers.tell(accountId);
  }

  watch(onChange: (accountId: string) => void): Promise<{ subscriptionId: string }> {
    return this.watchers.watch(onChange);
  }

  unwatch(params: { subscriptionId: string }): Promise<void> {
    return this.watchers.unwatch(params);
  }

}
