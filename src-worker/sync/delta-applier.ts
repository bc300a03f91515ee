/**
 * Applies one delta page in ONE write transaction: the changes, the commands it confirms
 * and the new cursor commit together or not at all (DESIGN §3). The cursor lives in the
 * account's own mail database (JSONBlob `sync-state`) for exactly that reason: IndexedDB
 * cannot span two databases, and the account list is another one. The Account record's
 * cursor/appliedTransactionId are copied from here after the commit, for display.
 */
import type { DeltaChange, DeltaResponse } from '../../shared/api/delta';
import type { RulesActivity } from '../../shared/mail-rules';
import type { CommandStatus } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore, type StoredRow, type WriteTransaction } from '../db/store';
import { PendingEffects } from '../mail-store/outbox-rows';
import { readSyncState, syncStateRow, type SyncState } from '../mail-store/sync-state';
import type { MessageRowChanges } from '../mail-store/change-feed';
import { MAIL_WRITE_TABLES, MailWriter } from '../mail-store/mail-writer';
import { markRanksCurrent } from '../mail-store/rank-rebuild';
import { SETTINGS_TABLES, writeLabels, writePlan, writeServerIdentities, writeServerPreferences } from '../mail-store/settings-rows';
import { writePendingSends } from '../mail-store/pending-sends';
import { writeThreadTimers } from '../mail-store/thread-timers';

/** A page writes mail and, when it carries them, the account's preferences and plan. */
const PAGE_TABLES = [...MAIL_WRITE_TABLES, ...SETTINGS_TABLES] as const;

/** What one committed page changed, for live lists and command watchers. */
export interface AppliedPage {
  readonly accountId: string;
  readonly state: SyncState;
  readonly threadIds: readonly string[];
  readonly foldersChanged: boolean;
  /** Commands this page confirmed. */
  readonly finished: readonly CommandStatus[];
  /** Every Message row the page wrote or removed (the search index takes them as they are). */
  readonly messages: MessageRowChanges;
  /** Contact rows the page's new mail ranked, as stored (the suggestion index takes them). */
  readonly contacts: readonly StoredRow[];
  /** The page carried the account's preferences, plan or identities (written with it): the settings service tells the tabs. */
  readonly settingsChanged: boolean;
  /** The address book changed on the gateway (its latest change's id): the contacts service pulls the cards. */
  readonly contactsRevision: number | null;
  /** The templates changed on the gateway (their latest change's id): the templates service pulls them. */
  readonly templatesRevision: number | null;
  /** The page carried the gateway's waiting sends (written with it). */
  readonly pendingSendsChanged: boolean;
  /** The page carried the account's snoozes, reminders and follow-ups (written with it). */
  readonly timersChanged: boolean;
  /** The rules were saved or a run moved on (the newest in the page): the rules service tells the tabs. Not stored: the rules live on the gateway. */
  readonly rulesActivity: RulesActivity | null;
}

export type { SyncState };

export interface DeltaApplierDeps {
  readonly accountId: string;
  readonly store: () => Promise<LocalStore<MailTable>>;
  /** Called inside the page's transaction after its changes: confirms commands up to `cursor`. */
  readonly reconcile: (params: { tx: WriteTransaction<MailTable>; writer: MailWriter; cursor: number }) => Promise<CommandStatus[]>;
}

/** Applies one change; true when it was the account's preferences, plan, identities or labels rather than mail. */
async function applyChange(tx: WriteTransaction<MailTable>, writer: MailWriter, change: Exclude<DeltaChange, { object: 'contacts' | 'rules' | 'templates' }>): Promise<boolean> {
  if (change.op === 'delete') {
    if (change.object === 'folder') await writer.deleteFolder(change.objectId);
    else if (change.object === 'message') await writer.deleteMessage(change.objectId);
    else await writer.deleteThread(change.objectId);
    return false;
  }
  if (change.object === 'folder') await writer.putFolder(change.data);
  else if (change.object === 'message') await writer.putMessage(change.data);
  else if (change.object === 'thread') await writer.putThread(change.data);
  // Not mail: cached beside it (mail-store/settings-rows.ts), in this page's transaction, so
  // the cursor never passes a preference change this device has not stored.
  else if (change.object === 'preferences') return (await writeServerPreferences(tx, change.data), true);
  else if (change.object === 'identities') return (await writeServerIdentities(tx, change.data), true);
  else if (change.object === 'plan') return (await writePlan(tx, change.data), true);
  else if (change.object === 'labels') return (await writeLabels(tx, change.data), true);
  else if (change.object === 'timers') await writeThreadTimers(tx, change.data);
  else await writePendingSends(tx, change.data);
  return false;
}

export class DeltaApplier {
  constructor(private readonly deps: DeltaApplierDeps) {}

  async state(): Promise<SyncState> {
    return withRead(await this.deps.store(), ['JSONBlob'], readSyncState);
  }

  /**
   * Applies `page`, fetched from `fromCursor`. Null when the stored cursor moved meanwhile
   * (a cache clear, another engine): the page no longer follows and is dropped.
   */
  async apply(page: DeltaResponse, params: { fromCursor: number; latestKnown: number }): Promise<AppliedPage | null> {
    const { accountId } = this.deps;
    return withWrite(await this.deps.store(), PAGE_TABLES, async (tx) => {
      const stored = await readSyncState(tx);
      if (stored.appliedTransactionId !== params.fromCursor) return null;
      const state: SyncState = { appliedTransactionId: page.cursor, cursor: Math.max(params.latestKnown, page.cursor, stored.cursor) };
      const writer = new MailWriter(tx, accountId, await PendingEffects.load(tx));
      // The first page of an empty database: the tally ranks all its mail, no rebuild needed (rank-rebuild.ts).
      if (params.fromCursor === 0) markRanksCurrent(tx);
      // One batch of reads for the whole page; from then on the changes cost no waits.
      await writer.prefetch(page.changes);
      let settingsChanged = false;
      let contactsRevision: number | null = null;
      let templatesRevision: number | null = null;
      const pendingSendsChanged = page.changes.some((change) => change.object === 'scheduled');
      const timersChanged = page.changes.some((change) => change.object === 'timers');
      let rulesActivity: RulesActivity | null = null;
      for (const change of page.changes) {
        // The cards are not in the page: the contacts service pulls them from its own cursor after the commit.
        if (change.object === 'contacts') contactsRevision = change.op === 'upsert' ? change.data.revision : contactsRevision;
        else if (change.object === 'templates') templatesRevision = change.op === 'upsert' ? change.data.revision : templatesRevision;
        else if (change.object === 'rules') rulesActivity = change.op === 'upsert' ? change.data : rulesActivity;
        else if (await applyChange(tx, writer, change)) settingsChanged = true;
      }
      const finished = await this.deps.reconcile({ tx, writer, cursor: page.cursor });
      await writer.finish();
      tx.queuePut('JSONBlob', syncStateRow(state));
      return { accountId, state, threadIds: [...writer.threadIds], foldersChanged: writer.foldersChanged, finished, messages: writer.messages, contacts: writer.contactRows, settingsChanged, contactsRevision, templatesRevision, pendingSendsChanged, timersChanged, rulesActivity };
    });
  }
}
