/**
 * Sends one account's recorded commands to the gateway, oldest first, one at a time, in
 * lanes (outbox-lanes.ts): a command the gateway fails with a server error waits out its
 * backoff holding up only its own lane (its draft's later rows, or later actions), while
 * the network being gone stops the whole pass. Survives a killed
 * worker: rows are re-read from the database at every start, and a row found "sending"
 * is sent again with the same idempotency key, which the gateway's actions tolerate
 * (they are idempotent "set" changes; send and draft creation deduplicate by key).
 */
import { systemClock, type Clock } from '../../shared/clock';
import { TernError } from '../../shared/errors';
import type { CommandStatus } from '../../shared/worker-mail-api';
import { temporaryId } from '../model/temporary-id';
import { isNetworkError, isRetryable } from '../api/retry';
import { endsSession } from '../api/session-ended';
import type { MailGateway } from '../api/mail-gateway';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore, type WriteTransaction } from '../db/store';
import { SYNC_BACKOFF, backoffDelay } from '../net/backoff';
import type { ChangeFeed } from '../mail-store/change-feed';
import { readSyncState } from '../mail-store/sync-state';
import { MAIL_WRITE_TABLES, MailWriter } from '../mail-store/mail-writer';
import type { OnlineStatus } from '../net/online-status';
import { doneStatus, settleActions } from './action-store';
import { gatewayRequests } from './command-plan';
import type { CommandStatusFeed } from './command-status-feed';
import { markSending as markDraftSending } from './draft-revisions';
import { recordDraftSave, withoutStaleLinks, writeDraftLink } from './draft-store';
import { readHeld, writeHeld } from './held-recipients';
import { OUTBOX_TABLE, PendingEffects, type ActionRow, type DiscardRow, type DraftRow, type OutboxRow, type SendRow } from '../mail-store/outbox-rows';
import { laneRows } from './outbox-lanes';
import { createRowRequests, type SendOutcome } from './row-requests';
import { createFollowUps, nextDelay, writeFollowUp } from './send-follow-up';
import { errorOf, writeSendNotice } from './send-notices';

/** Server errors (not the network) tolerated this many times before a command is given up. */
export const MAX_SERVER_ATTEMPTS = 8;
/** A draft save that failed that often is parked this long between tries, never dropped. */
export const PARKED_SAVE_RETRY_MS = 5 * 60_000;

export interface OutboxSenderDeps {
  readonly accountId: string;
  readonly store: () => Promise<LocalStore<MailTable>>;
  readonly gateway: Pick<MailGateway, 'bulk' | 'createDraft' | 'updateDraft' | 'getDraft' | 'send' | 'deleteDraft' | 'resendOutbox' | 'outboxStatus'>;
  /** Asks the sync for the delta that will confirm a sent command. */
  readonly requestPull: () => void;
  readonly online: OnlineStatus;
  readonly statuses: CommandStatusFeed;
  readonly changes: ChangeFeed;
  readonly clock?: Clock;
  readonly random?: () => number;
  /**
   * The gateway ended the session (401 InvalidToken …): the account is logged out and its
   * mail wiped; the person's unsent drafts and sends are first copied aside under the address
   * (accounts/kept-work.ts) and saved to Drafts at the next sign-in.
   */
  readonly onSessionEnded?: (error: TernError) => void;
}

export interface OutboxSender {
  /** Sends whatever is due (single flight; a call during a drain makes one more pass). */
  kick(): void;
  /** Resolves when the current pass (if any) ends; for tests and shutdown. */
  idle(): Promise<void>;
  stop(): void;
}

/** After a try: the row is settled and its lane goes on (`next`); it is still owed and its lane waits (`blocked`); or the pass ends (`stop`: the network is gone or the session ended, every row would fail alike). */
type Outcome = 'next' | 'blocked' | 'stop';

/** A gateway that refused a save because the draft changed since the version this engine sent, or was sent meanwhile (another device). */
const STALE_DRAFT_ERRORS: ReadonlySet<string> = new Set(['InvalidDraftVersion', 'InvalidUpdateDraft', 'DraftAlreadySent']);

const statusOf = (row: OutboxRow, status: CommandStatus['status'], error?: TernError, extra: Pick<CommandStatus, 'keptAs' | 'notice'> = {}): CommandStatus => ({
  commandId: row.id,
  accountId: row.account_id,
  kind: row.kind === 'action' ? row.command.kind : row.kind,
  status,
  ...(row.kind !== 'action' ? { draftId: row.draft_id } : {}),
  ...(error ? { error: errorOf(error) } : {}),
  ...extra,
});

/** The gateway's outbox row a failure names (SendFailed's `detail.outboxId`). */
function outboxIdOf(error: TernError | undefined): string | undefined {
  const outboxId = (error?.detail as { outboxId?: unknown } | undefined)?.outboxId;
  return typeof outboxId === 'string' ? outboxId : undefined;
}

export function createOutboxSender(deps: OutboxSenderDeps): OutboxSender {
  const clock = deps.clock ?? systemClock;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  /** Passes stopped in a row by the network or storage (server errors back off per row instead). */
  let failures = 0;
  let timer: unknown = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopOnlineWait: (() => void) | null = null;

  const write = async <R>(body: (tx: WriteTransaction<MailTable>) => Promise<R>) => withWrite(await deps.store(), MAIL_WRITE_TABLES, body);

  /** One timer for the earliest thing due (a held send, a retry); a pass re-plans the rest. */
  const wakeAt = (at: number) => {
    if (timer !== null && timerAt <= at) return;
    if (timer !== null) clock.clearTimeout(timer);
    timerAt = at;
    timer = clock.setTimeout(() => {
      timer = null;
      timerAt = Number.POSITIVE_INFINITY;
      kick();
    }, Math.max(0, at - clock.now()));
  };

  const followUps = createFollowUps({
    accountId: deps.accountId,
    store: deps.store,
    gateway: deps.gateway,
    statuses: deps.statuses,
    requestPull: deps.requestPull,
    clock,
    wakeAt: (at) => wakeAt(at),
    stopped: () => stopped,
  });

  /** Marks the row as handed to the network (its backoff, if any, is over); null when it is gone (undone) or already sent. */
  const markSending = (id: string) =>
    write(async (tx) => {
      const row = (await tx.get(OUTBOX_TABLE, id)) as OutboxRow | undefined;
      if (!row || row.status === 'sent') return null;
      const { backoff_until: _over, ...rest } = row;
      const next = { ...rest, status: 'sending', attempts: row.attempts + 1 } as OutboxRow;
      await tx.put(OUTBOX_TABLE, next);
      return next;
    });

  /** Back to pending; with `backoffUntil`, not tried again before then. */
  const setPending = (id: string, backoffUntil?: number) =>
    write(async (tx) => {
      const current = (await tx.get(OUTBOX_TABLE, id)) as OutboxRow | undefined;
      if (current) await tx.put(OUTBOX_TABLE, { ...current, status: 'pending', ...(backoffUntil !== undefined ? { backoff_until: backoffUntil } : {}) });
    });

  /**
   * Ends a command: settles an action's change (confirmed or reverted) and tells every tab.
   * A send that failed or may have gone out leaves a notice in the database, so the person
   * hears of it in any tab, after a reload too; a failed one's draft is open to edit again.
   */
  const finish = async (row: OutboxRow, status: 'done' | 'failed', error?: TernError, outcome: SendOutcome = {}) => {
    const notice = row.kind === 'send' ? (outcome.notice ?? (status === 'failed' ? 'notSent' : undefined)) : undefined;
    const threadIds = await write(async (tx) => {
      const writer = new MailWriter(tx, deps.accountId, await PendingEffects.load(tx));
      await settleActions(tx, writer, [row.id]);
      // A send that may not have gone, or is not final yet, keeps its draft's link: "Send again" / "Open draft" need it.
      if (row.kind === 'send' && status === 'done' && notice !== 'maybeSent' && !outcome.followUp) await writeDraftLink(tx, row.draft_id, null);
      if (row.kind === 'send' && outcome.followUp) {
        await writeFollowUp(tx, {
          commandId: row.id,
          accountId: row.account_id,
          outboxId: outcome.followUp,
          draftId: row.draft_id,
          subject: row.subject ?? '',
          attempts: 0,
          nextAt: clock.now() + nextDelay(0),
          queued: outcome.queued !== undefined,
        });
      }
      if (row.kind === 'send' && status === 'failed') await markDraftSending(tx, row.draft_id, false);
      if (row.kind === 'send' && notice) {
        const cause = error ?? outcome.error;
        const outboxId = outcome.outboxId ?? outboxIdOf(cause);
        await writeSendNotice(tx, {
          noticeId: row.id,
          accountId: row.account_id,
          kind: notice,
          draftId: row.draft_id,
          subject: row.subject ?? '',
          at: clock.now(),
          ...(cause ? { error: errorOf(cause) } : {}),
          ...(outboxId ? { outboxId } : {}),
        });
      }
      await writer.finish();
      return [...writer.threadIds];
    });
    deps.changes.emit({ accountId: deps.accountId, threadIds, foldersChanged: false });
    // Queued by the gateway: still on its way (its last error, if any, says why); the follow-up tells the end.
    if (outcome.queued) deps.statuses.publish(statusOf(row, 'pending', outcome.queued.error));
    else deps.statuses.publish(statusOf(row, status, error, notice ? { notice } : {}));
  };

  /**
   * The gateway refused a save as stale (the draft changed elsewhere, e.g. on another
   * device): the refused version is kept as a new draft of its own, so nothing typed is
   * lost even when no tab is open to ask; the composer offers it as "Keep both".
   */
  const keepRefusedSave = async (row: DraftRow, error: TernError) => {
    const keptAs = temporaryId();
    await write(async (tx) => {
      await settleActions(tx, new MailWriter(tx, deps.accountId, await PendingEffects.load(tx)), [row.id]);
      await writeHeld(tx, keptAs, await readHeld(tx, row.draft_id));
      await recordDraftSave(tx, {
        accountId: row.account_id,
        commandId: temporaryId(),
        draftId: keptAs,
        draft: { ...row.draft, draftId: keptAs },
        ...(row.from ? { from: row.from } : {}),
        now: clock.now(),
      });
    });
    deps.statuses.publish(statusOf(row, 'failed', error, { keptAs }));
    kick();
  };

  const { saveDraft, discard, send } = createRowRequests(deps);

  /** The gateway accepted an action: done now if its transaction is already applied, else when it is. */
  const sent = async (row: ActionRow, latestTxnId: number) => {
    const settledNow = await write(async (tx) => {
      if ((await readSyncState(tx)).appliedTransactionId >= latestTxnId) return true;
      const stored = (await tx.get(OUTBOX_TABLE, row.id)) as ActionRow | undefined;
      if (stored) await tx.put(OUTBOX_TABLE, { ...stored, status: 'sent', await_txn_id: latestTxnId });
      return false;
    });
    if (settledNow) await finish(row, 'done');
    else deps.requestPull();
  };

  const attempt = async (stored: OutboxRow): Promise<Outcome> => {
    // Found "sending": a previous engine died mid-request; its outcome is unknown.
    const replay = stored.status === 'sending';
    const row = await markSending(stored.id);
    if (!row) return 'next';
    try {
      if (row.kind === 'action') {
        // A restore may be several requests (one per folder); the last transaction confirms them all.
        let latestTxnId = 0;
        for (const request of gatewayRequests(row.command)) {
          const result = await deps.gateway.bulk({ ...request, idempotencyKey: row.idempotency_key });
          latestTxnId = Math.max(latestTxnId, result.latestTxnId);
        }
        await sent(row, latestTxnId);
        return 'next';
      }
      if (row.kind === 'saveDraft') await saveDraft(row);
      else if (row.kind === 'discardDraft') await discard(row);
      else {
        await finish(row, 'done', undefined, await send(row));
        return 'next';
      }
      await finish(row, 'done');
      return 'next';
    } catch (error) {
      const tern = error instanceof TernError ? error : new TernError('InternalServerError', { detail: { message: String(error) } });
      // A permanent delete that reached the gateway before the kill finds nothing the second time.
      const alreadyGone = replay && row.kind === 'action' && row.command.kind === 'delete' && (tern.name === 'ThreadNotFound' || tern.name === 'MessageNotFound');
      if (alreadyGone) {
        await finish(row, 'done');
        return 'next';
      }
      if (endsSession(tern)) {
        // Not the command's fault: the logout that follows keeps its draft's text for the next sign-in.
        await setPending(row.id);
        deps.onSessionEnded?.(tern);
        return 'stop';
      }
      const network = isNetworkError(error);
      if (row.kind === 'saveDraft' && STALE_DRAFT_ERRORS.has(tern.name)) {
        await keepRefusedSave(row, tern);
        return 'next';
      }
      if (!isRetryable(error) || (!network && row.attempts >= MAX_SERVER_ATTEMPTS)) {
        if (row.kind === 'saveDraft') {
          // A draft's text is never dropped: saved without a link the gateway no longer knows, or kept here.
          // Either way it is still owed: its draft's send or discard waits for it.
          if (!(await saveWithoutStaleLinks(row, tern))) await park(row, tern);
          return 'blocked';
        }
        await finish(row, 'failed', tern);
        return 'next';
      }
      // A server error: only this row waits, for a delay doubling with its own tries, so rows
      // of other lanes succeeding meanwhile do not make it hammer the gateway.
      const backoffUntil = network ? undefined : clock.now() + backoffDelay(row.attempts, SYNC_BACKOFF, deps.random);
      await setPending(row.id, backoffUntil);
      // Still owed, but not on the gateway yet: a draft's composer says "saved on this device only", and why.
      if (row.kind !== 'action') deps.statuses.publish(statusOf(row, 'pending', tern));
      if (backoffUntil !== undefined) {
        wakeAt(backoffUntil);
        return 'blocked';
      }
      if (!(await deps.online.isOnline({ force: true }))) {
        stopOnlineWait ??= deps.online.subscribe((online) => {
          if (!online) return;
          stopOnlineWait?.();
          stopOnlineWait = null;
          kick();
        });
      } else {
        failures++;
        wakeAt(clock.now() + backoffDelay(failures, SYNC_BACKOFF, deps.random));
      }
      return 'stop';
    }
  };

  /**
   * A save refused because it names what the gateway no longer has — the message it replies
   * to (ParentMessageNotFound: deleted, or a gateway with fresh data) or an uploaded file
   * (FileNotFound: expired) — is tried again at once without that link: the text matters
   * more than the thread link or the file, which the composer shows missing. False when the
   * refusal is of another kind.
   */
  const saveWithoutStaleLinks = async (row: DraftRow, error: TernError): Promise<boolean> => {
    const draft = withoutStaleLinks(row.draft, error);
    if (draft === null) return false;
    await write(async (tx) => {
      const current = (await tx.get(OUTBOX_TABLE, row.id)) as DraftRow | undefined;
      // A newer save of the same draft replaced this one meanwhile: it carries its own links.
      if (current && current.status === 'sending') await tx.put(OUTBOX_TABLE, { ...current, draft, status: 'pending', attempts: 0 });
    });
    deps.statuses.publish(statusOf(row, 'pending', error));
    kick();
    return true;
  };

  /**
   * A draft save the gateway keeps failing (e.g. a server whose APPEND always fails) stays on
   * this device and is tried again every few minutes, still "saved on this device only";
   * dropping it lost the text of a composer already closed.
   */
  const park = async (row: DraftRow, error: TernError) => {
    const retryAt = clock.now() + PARKED_SAVE_RETRY_MS;
    await write(async (tx) => {
      const current = (await tx.get(OUTBOX_TABLE, row.id)) as DraftRow | undefined;
      if (current) await tx.put(OUTBOX_TABLE, { ...current, status: 'pending', attempts: 0, retry_at: retryAt });
    });
    deps.statuses.publish(statusOf(row, 'pending', error));
    wakeAt(retryAt);
  };

  const drain = async () => {
    const rows = await withRead(await deps.store(), [OUTBOX_TABLE, 'JSONBlob'], laneRows);
    /** Lanes held this pass by a row still owed: their later rows wait (a send would send an older text). */
    const blocked = new Set<string>();
    for (const { row, lane } of rows) {
      if (stopped) return;
      if (row.status === 'sent') continue; // waiting for its transaction in delta
      if (blocked.has(lane)) continue;
      // Backing off after server errors, or a parked save.
      const waitUntil = Math.max(row.backoff_until ?? 0, row.kind === 'saveDraft' ? (row.retry_at ?? 0) : 0);
      if (waitUntil > clock.now()) {
        blocked.add(lane);
        wakeAt(waitUntil);
        continue;
      }
      // Held in its undo window; later commands do not wait for it.
      if (row.kind === 'send' && row.send_at > clock.now()) {
        wakeAt(row.send_at);
        continue;
      }
      const outcome = await attempt(row);
      if (outcome === 'stop') return;
      if (outcome === 'blocked') blocked.add(lane);
      else failures = 0;
    }
    await followUps.run();
  };

  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch(() => {
        // Storage failed under us: try again later rather than lose the queue.
        failures++;
        if (!stopped) wakeAt(clock.now() + backoffDelay(failures, SYNC_BACKOFF, deps.random));
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  };

  return {
    kick,
    async idle() {
      while (running) await running;
    },
    stop() {
      stopped = true;
      if (timer !== null) clock.clearTimeout(timer);
      stopOnlineWait?.();
    },
  };
}
