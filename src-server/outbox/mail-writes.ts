import { join } from 'node:path';
import type { AccountStore } from '../accounts/account-store';
import { ActionService, type ActionServiceDeps } from '../actions/action-service';
import { ActionTargets } from '../actions/action-targets';
import { FolderRoles } from '../actions/folder-roles';
import { MailboxAccess } from '../actions/mailbox-access';
import { MoveRehomer } from '../actions/move-identity';
import { DraftService } from '../drafts/draft-service';
import { DraftStore } from '../drafts/draft-store';
import { MessageAssembler, type SenderIdentities } from '../drafts/message-assembler';
import { ParentResolver } from '../drafts/parent-resolver';
import { UploadStore } from '../drafts/upload-store';
import type { JobQueue } from '../jobs/job-queue';
import type { JobWorker } from '../jobs/job-worker';
import type { Materializer } from '../mirror/materialize';
import type { MirrorManager } from '../mirror/mirror-manager';
import type { PushHub } from '../push/push-hub';
import type { SmtpConnector } from '../smtp/smtp-connector';
import { PooledSmtp } from '../smtp/smtp-pool';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { OUTBOX_FILE, OUTBOX_SEND, OutboxJobs } from './outbox-jobs';
import { OutboxStore } from './outbox-store';
import { OutboxWorker, type OutboxOptions } from './outbox-worker';
import { ScheduledDrafts } from './scheduled-drafts';
import { SendService } from './send-service';
import { SentFiler } from './sent-filer';

/** Uploads no draft holds are removed after this long. */
export const UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** How often draft saves left unfinished (IMAP failing mid-way) are looked at again; a start looks at once. */
const DRAFT_RECOVERY_INTERVAL_MS = 5 * 60 * 1000;
/** The waiting list's changes are announced to devices at most this often per account. */
const ANNOUNCE_EVERY_MS = 100;

export interface MailWritesDeps {
  /** Drafts, uploads, the outbox and the actions' stores. */
  readonly store: SqlStore;
  readonly dataDir: string;
  readonly accounts: AccountStore;
  readonly txlog: TransactionLog;
  readonly push: PushHub;
  readonly mirrors: MirrorManager;
  readonly materializer: Materializer;
  /** The account's identities, for the From, Reply-To and Bcc of what is sent; absent: the account's own address only. */
  readonly identities?: SenderIdentities;
  /** Checks a bulk action's label keyword (the account's labels, the plan's `labels`). */
  readonly labels: ActionServiceDeps['labels'];
  /** The node's job queue and worker: the outbox's rows are sent as `outbox.send` jobs. */
  readonly jobs: { readonly queue: JobQueue; readonly worker: Pick<JobWorker, 'register' | 'kick'> };
  /** How mail leaves; default SMTP with each account's settings, one connection kept per account (tests pass their own). */
  readonly smtp?: SmtpConnector;
  readonly outbox?: Partial<OutboxOptions>;
  /** How long POST /api/send waits for the outcome. */
  readonly sendWaitMs?: number;
  /** The gateway's clock (tests pass one they move): held and scheduled sends leave by it. */
  readonly now?: () => number;
  readonly onError?: (accountId: number | null, error: unknown) => void;
}

/** The services that change mail (actions, drafts, uploads, send) and their background work. */
export interface MailWrites {
  readonly actions: ActionService;
  readonly drafts: DraftService;
  readonly uploads: UploadStore;
  readonly send: SendService;
  /** The outbox's job handler (its `changed` events tell a waiting send how its row stands). */
  readonly outbox: OutboxWorker;
  /**
   * Gateway ready: gives every outbox row with work left its job (rows of an older build),
   * puts right draft saves a previous run left unfinished, and sweeps old uploads. The node's
   * job worker, started beside it, sends.
   */
  start(): void;
  stop(): Promise<void>;
}

export function createMailWrites(deps: MailWritesDeps): MailWrites {
  const { store, accounts, txlog, mirrors, materializer } = deps;
  const report = (accountId: number | null, error: unknown) => deps.onError?.(accountId, error);
  const roles = new FolderRoles(store);
  const access = new MailboxAccess({ mirrors, onError: report });
  const uploads = new UploadStore({ store, dir: join(deps.dataDir, 'uploads') });
  const draftStore = new DraftStore(store);
  const assembler = new MessageAssembler({ accounts, uploads, ...(deps.identities ? { identities: deps.identities } : {}) });
  const parents = new ParentResolver({ materializer, roles, access });
  const drafts = new DraftService({ sql: store, store: draftStore, accounts, assembler, parents, uploads, roles, access, txlog });
  const outboxStore = new OutboxStore(store, deps.now);
  const scheduledDrafts = new ScheduledDrafts({ drafts, draftStore, roles, access });
  const outboxJobs = new OutboxJobs(deps.jobs.queue, store);
  const smtp = deps.smtp ?? new PooledSmtp();
  const outbox = new OutboxWorker({
    now: deps.now,
    store: outboxStore,
    smtp,
    accounts,
    filing: new SentFiler({ access, roles, drafts, draftStore, uploads, materializer, onError: report }),
    fileLater: (row) => outboxJobs.enqueueFiling(row),
    // The message did not leave: its draft is editable again, so the person can fix and resend;
    // a scheduled one's draft, kept out of Drafts while it waited, is saved back there.
    onFailed: async (row) => {
      if (row.draftId === null) return;
      await draftStore.transition(row.draftId, ['sending'], 'open');
      if (row.scheduled) await scheduledDrafts.restore(row.accountId, row.draftId).catch((error: unknown) => report(row.accountId, error));
    },
    onError: (error) => report(null, error),
    options: deps.outbox,
  });
  deps.jobs.worker.register(OUTBOX_SEND, outbox.handle, outbox.retryPolicy);
  deps.jobs.worker.register(OUTBOX_FILE, outbox.handleFiling, outbox.retryPolicy);
  /** A `scheduled` entry in the account's log: every device reads the waiting sends anew through delta. */
  const announceWaiting = async (accountId: number) => deps.push.announce(accountId, await txlog.append(accountId, [{ object: 'scheduled', objectId: accountId }]));
  const send = new SendService({
    sql: store,
    store: outboxStore,
    jobs: outboxJobs,
    worker: outbox,
    kick: () => deps.jobs.worker.kick(),
    drafts,
    draftStore,
    assembler,
    parents,
    accounts,
    txlog,
    waitMs: deps.sendWaitMs,
    now: deps.now,
    announceWaiting,
    draftCopies: scheduledDrafts,
    onError: report,
  });
  // A held or scheduled send that starts, leaves or fails changes the waiting list every device
  // shows. One entry per account per ANNOUNCE_EVERY_MS: a burst of due sends changes each row
  // three or four times, and devices read the whole list anew anyway.
  const announcing = new Map<number, NodeJS.Timeout>();
  const announceSoon = (accountId: number) => {
    if (announcing.has(accountId)) return;
    const timer = setTimeout(() => {
      announcing.delete(accountId);
      announceWaiting(accountId).catch((error: unknown) => report(accountId, error));
    }, ANNOUNCE_EVERY_MS);
    announcing.set(accountId, timer.unref());
  };
  outbox.on('changed', (outboxId) => {
    void outboxStore.brief(outboxId).then(
      (row) => (row && row.sendAt !== null ? announceSoon(row.accountId) : undefined),
      (error: unknown) => report(null, error),
    );
  });
  const actions = new ActionService({ targets: new ActionTargets(store), roles, access, rehomer: new MoveRehomer({ store, txlog, push: deps.push }), txlog, labels: deps.labels });

  let sweepTimer: NodeJS.Timeout | null = null;
  let recoveryTimer: NodeJS.Timeout | null = null;
  const sweep = () => void uploads.sweep(UPLOAD_MAX_AGE_MS).catch((error: unknown) => report(null, error));
  // SQLite is one node's file: at start, the draft locks it holds were left by a process that is gone.
  const recoverDrafts = (atStart = false) => void drafts.recoverSaves(report, atStart && store.dialect === 'sqlite').catch((error: unknown) => report(null, error));
  return {
    actions,
    drafts,
    uploads,
    send,
    outbox,
    start() {
      void outboxJobs.adoptUnfinished(outboxStore).then(() => deps.jobs.worker.kick(), (error: unknown) => report(null, error));
      recoverDrafts(true);
      recoveryTimer = setInterval(recoverDrafts, DRAFT_RECOVERY_INTERVAL_MS);
      recoveryTimer.unref();
      sweep();
      sweepTimer = setInterval(sweep, UPLOAD_SWEEP_INTERVAL_MS);
      sweepTimer.unref();
    },
    async stop() {
      if (smtp instanceof PooledSmtp) smtp.close();
      for (const timer of announcing.values()) clearTimeout(timer);
      announcing.clear();
      if (sweepTimer) clearInterval(sweepTimer);
      if (recoveryTimer) clearInterval(recoveryTimer);
    },
  };
}
