import { addressKey } from '../../shared/address-equivalence';
import type { BulkAction } from '../../shared/api/actions';
import type { Address } from '../../shared/api/mail';
import type { FollowUpRequest, ThreadTimerRequest, TimerKind, TimerResult, TimersDoc } from '../../shared/api/timers';
import { TernError } from '../../shared/errors';
import { checkSchedule, type Schedule } from '../../shared/send-time';
import type { FolderRef, FolderRoles } from '../actions/folder-roles';
import type { JobQueue } from '../jobs/job-queue';
import type { JobWorker } from '../jobs/job-worker';
import type { TxnAnnouncer } from '../plans/plan-service';
import type { SqlStore } from '../store/sql';
import type { TransactionLog, TxObject } from '../store/transaction-log';
import { TimerStore, toThreadTimer, type TimerRow } from './timer-store';

/** The job that fires one timer at its time (payload: its id and the time it was set for). */
export const THREAD_TIMER = 'thread.timer';

/**
 * The folder snoozed mail waits in: the name draft-ietf-extra-email-snooze gives its
 * \Snoozed mailbox. An ordinary folder to any other mail program; the time is kept here.
 */
export const SNOOZED_FOLDER = 'Snoozed';

export interface TimerServiceDeps {
  readonly store: SqlStore;
  readonly txlog: Pick<TransactionLog, 'append' | 'latest'>;
  readonly push: TxnAnnouncer;
  readonly jobs: { readonly queue: JobQueue; readonly worker: Pick<JobWorker, 'register' | 'kick'> };
  /** Moves mail (actions/action-service.ts): snooze takes a thread out of the Inbox and brings it back. */
  readonly actions: { apply(accountId: number, scope: 'messages', body: BulkAction): Promise<unknown> };
  readonly roles: Pick<FolderRoles, 'folders' | 'role'>;
  /** Creates the Snoozed folder the first time (reading/folder-service.ts). */
  readonly createFolder: (accountId: number, name: string) => Promise<unknown>;
  /** Every address of the account (its identities): a follow-up's reply comes from none of them. */
  readonly addresses: (accountId: number) => Promise<readonly string[]>;
  /** The gateway's clock (tests pass one they move). */
  readonly now?: () => number;
}

const notFound = (id: number) => new TernError('ReminderNotFound', { detail: { id: String(id) } });

/**
 * Snooze, reminders and follow-ups (issue 15 points 3–4), kept on the gateway so they fire
 * with every browser closed: a row of thread_timers and a `thread.timer` job due at its time
 * (the outbox's due-work loop, jobs/job-queue.ts). Firing raises the thread: it gets a mark
 * and sorts at the moment it fired (the summary's `raised`, mirror/materialize.ts), so it is
 * back on top of the Inbox on every device, until dismissed. Every change appends a `timers`
 * entry (the delta's list) and, when a mark comes or goes, the thread's own.
 */
export class TimerService {
  private readonly timers: TimerStore;
  private readonly now: () => number;

  constructor(private readonly deps: TimerServiceDeps) {
    this.timers = new TimerStore(deps.store);
    this.now = deps.now ?? Date.now;
    deps.jobs.worker.register(THREAD_TIMER, (payload) => this.fire(payload as { timerId: number; dueAt: number }), { maxAttempts: 8, firstDelayMs: 10_000 });
  }

  /** GET /api/reminders and the delta's `timers` document (no IMAP: read inside delta's transaction). */
  async doc(accountId: number): Promise<TimersDoc> {
    return { timers: (await this.timers.list(accountId)).map(toThreadTimer) };
  }

  /** GET /api/follow-ups: the follow-ups only. */
  async followUps(accountId: number): Promise<TimersDoc> {
    return { timers: (await this.doc(accountId)).timers.filter((timer) => timer.kind === 'followUp') };
  }

  /** POST /api/snoozes: the thread's Inbox mail goes to the Snoozed folder until the time (a snoozed thread: a new time). */
  async snooze(accountId: number, request: ThreadTimerRequest): Promise<TimerResult> {
    const dueAt = this.dueAt(request.schedule);
    const threadId = Number(request.threadId);
    const messages = await this.messagesOf(accountId, threadId);
    const snoozed = await this.snoozedFolder(accountId, true);
    const folders = await this.deps.roles.folders(accountId);
    const inbox = folders.find((folder) => folder.specialUse === 'inbox' || folder.path.toUpperCase() === 'INBOX');
    const leaving = messages.filter((message) => message.folderId === inbox?.id).map((message) => message.id);
    if (leaving.length === 0 && !messages.some((message) => message.folderId === snoozed!.id)) {
      throw new TernError('InvalidOperation', { detail: { reason: 'Only a conversation in the Inbox can be snoozed.' } });
    }
    if (leaving.length > 0) await this.deps.actions.apply(accountId, 'messages', { ids: leaving.map(String), action: 'move', folderId: String(snoozed!.id) });
    return this.upsert(accountId, { threadId, kind: 'snooze', dueAt, timeZone: request.schedule.timeZone, subject: messages[0]!.subject, messageId: null, since: null });
  }

  /** POST /api/reminders/upsert: remind me of the thread at the time (its one reminder: a new time replaces the old). */
  async remind(accountId: number, request: ThreadTimerRequest): Promise<TimerResult> {
    const dueAt = this.dueAt(request.schedule);
    const threadId = Number(request.threadId);
    const messages = await this.messagesOf(accountId, threadId);
    return this.upsert(accountId, { threadId, kind: 'remind', dueAt, timeZone: request.schedule.timeZone, subject: messages[0]!.subject, messageId: null, since: null });
  }

  /** POST /api/follow-ups: on a message the account sent; at the time, raised unless someone else answered. */
  async addFollowUp(accountId: number, request: FollowUpRequest): Promise<TimerResult> {
    const dueAt = this.dueAt(request.schedule);
    const messageId = Number(request.messageId);
    const message = await this.timers.message(accountId, messageId);
    if (!message) throw new TernError('MessageNotFound', { detail: { messageId: request.messageId } });
    const mine = new Set((await this.deps.addresses(accountId)).map(addressKey));
    const from = (JSON.parse(message.fromJson) as Address[]).map((address) => addressKey(address.email));
    if (!from.some((address) => mine.has(address))) throw new TernError('InvalidOperation', { detail: { reason: 'A follow-up is set on a message you sent.' } });
    return this.upsert(accountId, { threadId: message.threadId, kind: 'followUp', dueAt, timeZone: request.schedule.timeZone, subject: message.subject, messageId, since: message.date });
  }

  /** PUT /api/follow-ups/:id: another time. */
  async updateFollowUp(accountId: number, id: number, schedule: Schedule): Promise<TimerResult> {
    const dueAt = this.dueAt(schedule);
    const row = await this.timers.get(accountId, id);
    if (!row || row.kind !== 'followUp' || (row.state !== 'waiting' && row.state !== 'raised')) throw notFound(id);
    return this.upsert(accountId, { ...row, dueAt, timeZone: schedule.timeZone });
  }

  /**
   * DELETE /api/reminders/:id, /api/follow-ups/:id, /api/snoozes/:id: a waiting timer
   * cancelled, or a raised one's mark dismissed. A waiting snooze cancelled is "unsnooze":
   * its mail goes back to the Inbox now. Asked twice (two tabs), the same answer.
   */
  async remove(accountId: number, id: number, kinds: readonly TimerKind[]): Promise<TimerResult> {
    const row = await this.timers.get(accountId, id);
    if (!row || !kinds.includes(row.kind)) throw notFound(id);
    if (row.state !== 'waiting' && row.state !== 'raised') return { timer: null, latestTxnId: await this.deps.txlog.latest(accountId) };
    if (row.kind === 'snooze' && row.state === 'waiting') await this.wake(accountId, row.threadId);
    const now = this.now();
    await this.deps.store.transaction(async () => {
      await this.deps.jobs.queue.cancelPending(THREAD_TIMER, jobKey(row));
      await this.timers.transition(row.id, ['waiting', 'raised'], row.state === 'raised' ? 'done' : 'cancelled', now);
    });
    return { timer: null, latestTxnId: await this.announce(accountId, row.threadId, row.state === 'raised') };
  }

  /**
   * The job: the timer's time has come. A job of a time since changed or cancelled finds its
   * row moved on and does nothing; run twice (a claim that lapsed), the second finds it raised.
   */
  private async fire(payload: { timerId: number; dueAt: number }): Promise<void> {
    const row = await this.deps.store.get<{ accountId: number }>('SELECT account_id AS "accountId" FROM thread_timers WHERE id = ?', [payload.timerId]);
    if (!row) return;
    const accountId = Number(row.accountId);
    const timer = await this.timers.get(accountId, payload.timerId);
    if (!timer || timer.state !== 'waiting' || timer.dueAt !== payload.dueAt) return;
    const messages = await this.timers.threadMessages(accountId, timer.threadId);
    const folders = await this.deps.roles.folders(accountId);
    const gone = new Set(folders.filter((folder) => folder.specialUse === 'trash' || folder.specialUse === 'junk' || /^(trash|junk|spam)$/i.test(folder.path)).map((folder) => folder.id));
    // Deleted, or all in Trash: the reminder or follow-up ends quietly (a snoozed thread in Trash too).
    const live = messages.filter((message) => !gone.has(message.folderId));
    let outcome: 'raised' | 'cancelled' = live.length > 0 ? 'raised' : 'cancelled';
    if (outcome === 'raised' && timer.kind === 'followUp' && (await this.answered(accountId, timer, messages))) outcome = 'cancelled';
    if (timer.kind === 'snooze' && live.length > 0) await this.wake(accountId, timer.threadId, folders);
    const now = this.now();
    if (!(await this.timers.transition(timer.id, ['waiting'], outcome, now, outcome === 'raised' ? now : null))) return;
    await this.announce(accountId, timer.threadId, outcome === 'raised');
  }

  /** Whether anyone but the account wrote in the thread after the followed message. */
  private async answered(accountId: number, timer: TimerRow, messages: readonly { fromJson: string; date: number; id: number }[]): Promise<boolean> {
    const mine = new Set((await this.deps.addresses(accountId)).map(addressKey));
    return messages.some(
      (message) => message.id !== timer.messageId && message.date > (timer.since ?? 0) && (JSON.parse(message.fromJson) as Address[]).some((address) => !mine.has(addressKey(address.email))),
    );
  }

  /** The thread's mail in the Snoozed folder goes back to the Inbox. */
  private async wake(accountId: number, threadId: number, known?: readonly FolderRef[]): Promise<void> {
    const snoozed = await this.snoozedFolder(accountId, false, known);
    const inbox = await this.deps.roles.role(accountId, 'inbox');
    if (!snoozed || !inbox) return;
    const back = (await this.timers.threadMessages(accountId, threadId)).filter((message) => message.folderId === snoozed.id).map((message) => String(message.id));
    if (back.length > 0) await this.deps.actions.apply(accountId, 'messages', { ids: back, action: 'move', folderId: String(inbox.id) });
  }

  private async snoozedFolder(accountId: number, create: boolean, known?: readonly FolderRef[]): Promise<FolderRef | undefined> {
    const find = (folders: readonly FolderRef[]) => folders.find((folder) => folder.path.toLowerCase() === SNOOZED_FOLDER.toLowerCase());
    const found = find(known ?? (await this.deps.roles.folders(accountId)));
    if (found || !create) return found;
    // Another request may create it at the same time: FolderAlreadyExist is then as good.
    await this.deps.createFolder(accountId, SNOOZED_FOLDER).catch((error: unknown) => {
      if (!(error instanceof TernError && error.name === 'FolderAlreadyExist')) throw error;
    });
    const created = find(await this.deps.roles.folders(accountId));
    if (!created) throw new TernError('FolderNotFound', { detail: { path: SNOOZED_FOLDER } });
    return created;
  }

  /** The thread's one live timer of this kind, at the new time, and its job; the old time's job is removed in the same transaction. */
  private async upsert(accountId: number, timer: Omit<TimerRow, 'id' | 'accountId' | 'state' | 'raisedAt'>): Promise<TimerResult> {
    const now = this.now();
    const { queue } = this.deps.jobs;
    const { id, wasRaised } = await this.deps.store.transaction(async () => {
      const existing = await this.timers.live(accountId, timer.threadId, timer.kind);
      if (existing) {
        await queue.cancelPending(THREAD_TIMER, jobKey(existing));
        await this.timers.reschedule(existing.id, { dueAt: timer.dueAt, timeZone: timer.timeZone, now });
      }
      const id = existing?.id ?? (await this.timers.insert({ ...timer, accountId, now }));
      await queue.enqueue(THREAD_TIMER, { timerId: id, dueAt: timer.dueAt }, timer.dueAt, jobKey({ id, dueAt: timer.dueAt }));
      return { id, wasRaised: existing?.state === 'raised' };
    });
    this.deps.jobs.worker.kick();
    const latestTxnId = await this.announce(accountId, timer.threadId, wasRaised);
    const row = await this.timers.get(accountId, id);
    return { timer: row ? toThreadTimer(row) : null, latestTxnId };
  }

  /** The list changed on every device; the thread's summary too when its mark came or went. */
  private async announce(accountId: number, threadId: number, markChanged: boolean): Promise<number> {
    const changes: { object: TxObject; objectId: number }[] = [{ object: 'timers', objectId: accountId }];
    if (markChanged) changes.push({ object: 'thread', objectId: threadId });
    const latest = await this.deps.txlog.append(accountId, changes);
    this.deps.push.announce(accountId, latest);
    return latest;
  }

  private dueAt(schedule: Schedule): number {
    const check = checkSchedule(schedule, this.now());
    if (!check.ok) throw new TernError(check.error, { detail: { at: schedule.at, timeZone: schedule.timeZone } });
    return check.sendAt;
  }

  private async messagesOf(accountId: number, threadId: number) {
    const messages = await this.timers.threadMessages(accountId, threadId);
    if (messages.length === 0) throw new TernError('ThreadNotFound', { detail: { threadId: String(threadId) } });
    return messages;
  }
}

/** A timer's job is keyed by its time as well: a new time is a new job, whatever the old one's claim. */
const jobKey = (timer: { id: number; dueAt: number }) => `timer:${timer.id}:${timer.dueAt}`;
