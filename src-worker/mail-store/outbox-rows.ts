/**
 * Commands waiting for the gateway, as ProviderSyncbackRequest rows (spec §3). A row is
 * written in the same transaction as the optimistic change it describes, so after a
 * killed worker the change and the duty to send it are either both there or both not.
 * Finished rows are deleted; their outcome lives on in the status feed.
 */
import type { MessageEffect } from '../../shared/command-effects';
import type { Schedule } from '../../shared/send-time';
import type { DraftInput, MailCommand } from '../../shared/worker-mail-api';
import type { ReadTransaction, StoredRow } from '../db/store';
import type { MailTable } from '../db/mail-schema';

/**
 * pending: not sent yet (or to be sent again); sending: handed to the network (after a
 * kill, its outcome is unknown: the replay must be harmless); sent: the gateway accepted
 * it and named the transaction that will show it (`await_txn_id`).
 */
export type OutboxStatus = 'pending' | 'sending' | 'sent';
export const LIVE_STATUSES: readonly OutboxStatus[] = ['pending', 'sending', 'sent'];

interface OutboxBase extends StoredRow {
  /** The command id tabs see. */
  readonly id: string;
  readonly account_id: string;
  /** Order of creation within the account: commands are sent in this order. */
  readonly seq: number;
  readonly status: OutboxStatus;
  /** Sent to the gateway with every attempt, so a repeat is recognised. */
  readonly idempotency_key: string;
  /** Tries so far (counted as each starts). */
  readonly attempts: number;
  readonly created_at: number;
  /**
   * Epoch ms before which it is not tried again, its lane waiting (outbox-lanes.ts): the
   * backoff after a server error, doubling with `attempts`. Absent when not backing off.
   */
  readonly backoff_until?: number;
}

export interface ActionRow extends OutboxBase {
  readonly kind: 'action';
  readonly command: MailCommand;
  /** messageId → what the command does to it (shared/command-effects.ts), computed once when it is run (replays reuse it). */
  readonly effects: Readonly<Record<string, MessageEffect>>;
  readonly thread_ids: readonly string[];
  readonly await_txn_id: number | null;
}

export interface DraftRow extends OutboxBase {
  readonly kind: 'saveDraft';
  /** The local draft id the composer holds. */
  readonly draft_id: string;
  readonly draft: DraftInput;
  /** The sender as the account's settings named it when the save was recorded (absent in rows from before display names). */
  readonly from?: { readonly name: string; readonly email: string };
  /**
   * Epoch ms before which it is not tried again: a save the gateway kept failing is parked,
   * not dropped (the text stays on this device); its lane (its draft's send or discard) waits.
   */
  readonly retry_at?: number;
}

export interface SendRow extends OutboxBase {
  readonly kind: 'send';
  readonly draft_id: string;
  /** Epoch ms before which it is not handed to the gateway (rows of older engines held the undo window here). */
  readonly send_at: number;
  /** The undo window the gateway holds it for (ms), from the moment it has it. */
  readonly hold_ms?: number;
  /** Send later: the time the gateway sends it at. */
  readonly schedule?: Schedule;
  /** The message asks for a read receipt (Disposition-Notification-To). */
  readonly request_receipt?: boolean;
  /** The subject, to name the message on a notice (absent in rows from before notices). */
  readonly subject?: string;
  /** "Send again" of a message whose outcome was unknown: the gateway's outbox row to resend (not the draft). */
  readonly resend_of?: string;
}

/** A draft thrown away: after the saves before it, the gateway deletes it (if it ever got it). */
export interface DiscardRow extends OutboxBase {
  readonly kind: 'discardDraft';
  readonly draft_id: string;
}

export type OutboxRow = ActionRow | DraftRow | SendRow | DiscardRow;

export const OUTBOX_TABLE = 'ProviderSyncbackRequest' satisfies MailTable;

/** Every live row of the account, oldest first. */
export async function liveRows(tx: ReadTransaction<MailTable>): Promise<OutboxRow[]> {
  const groups = await Promise.all(LIVE_STATUSES.map((status) => tx.getAll(OUTBOX_TABLE, { index: 'status', range: { lower: status, upper: status } })));
  return (groups.flat() as OutboxRow[]).sort((a, b) => a.seq - b.seq);
}

/** The pending changes of every live action, to lay over server state. */
export class PendingEffects {
  private readonly actions = new Map<string, ActionRow>();
  /** messageId → effects in command order; rebuilt after a change (a page reads it per message). */
  private byMessage: Map<string, MessageEffect[]> | null = null;

  constructor(rows: readonly OutboxRow[]) {
    for (const row of rows) if (row.kind === 'action') this.actions.set(row.id, row);
  }

  /** Whether any action is pending at all (the common case is none: then nothing is laid over). */
  get isEmpty(): boolean {
    return this.actions.size === 0;
  }

  static async load(tx: ReadTransaction<MailTable>): Promise<PendingEffects> {
    return new PendingEffects(await liveRows(tx));
  }

  add(row: ActionRow): void {
    this.actions.set(row.id, row);
    this.byMessage = null;
  }

  remove(commandId: string): ActionRow | undefined {
    const row = this.actions.get(commandId);
    this.actions.delete(commandId);
    this.byMessage = null;
    return row;
  }

  get(commandId: string): ActionRow | undefined {
    return this.actions.get(commandId);
  }

  /** Actions the gateway accepted whose transaction is now applied. */
  confirmedBy(cursor: number): ActionRow[] {
    return [...this.actions.values()].filter((row) => row.status === 'sent' && row.await_txn_id !== null && row.await_txn_id <= cursor);
  }

  /** A message's changes, oldest command first. */
  effectsFor(messageId: string): MessageEffect[] {
    if (this.actions.size === 0) return [];
    if (!this.byMessage) {
      this.byMessage = new Map();
      for (const row of [...this.actions.values()].sort((a, b) => a.seq - b.seq)) {
        for (const [id, effect] of Object.entries(row.effects)) this.byMessage.set(id, [...(this.byMessage.get(id) ?? []), effect]);
      }
    }
    return this.byMessage.get(messageId) ?? [];
  }

  /** Whether any message of the thread has a pending change. */
  touchesThread(threadId: string, messageIds: readonly string[]): boolean {
    if (this.actions.size === 0) return false;
    for (const row of this.actions.values()) {
      if (row.thread_ids.includes(threadId) || messageIds.some((id) => row.effects[id] !== undefined)) return true;
    }
    return false;
  }
}

