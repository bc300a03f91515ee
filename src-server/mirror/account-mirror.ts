import { EventEmitter } from 'node:events';
import type { ImapFlow, MailboxObject } from 'imapflow';
import { TernError } from '../../shared/errors';
import { isAuthFailure, type ImapPurpose } from '../imap/imap-client';
import { LeanFetch } from '../imap/lean-fetch';
import { Backoff, sleep } from './backoff';
import { ConnectionGate } from './connection-gate';
import { syncFolder } from './folder-sync';
import { sweepFolders } from './folder-sweep';
import { IdleWatcher } from './idle-watcher';
import { proveAlive, withinDeadline } from './liveness';
import { DEFAULT_MIRROR_OPTIONS, FAILED_FOLDER_COOLDOWN_MS, FLAG_RECHECK_SWEEPS, type MirrorOptions } from './mirror-options';
import type { MirrorStore } from './mirror-store';
import { SerialQueue } from './serial-queue';
import { PRIORITY, SyncScheduler, type SyncTask } from './sync-scheduler';
import { VanishedLog } from './vanished-log';

export { DEFAULT_MIRROR_OPTIONS, type MirrorOptions } from './mirror-options';

export type MirrorState = 'connecting' | 'syncing' | 'ready' | 'backoff' | 'auth-failed' | 'stopped';

/** Timings of the first cold sync, from `start()` (ms). */
export interface MirrorProgress {
  firstInboxPageMs: number | null;
  fullyMirroredMs: number | null;
}

export interface AccountMirrorDeps {
  readonly accountId: number;
  readonly store: MirrorStore;
  /** A fresh, unconnected client with the account's current password (read from the store). */
  readonly createClient: (purpose: ImapPurpose) => ImapFlow | Promise<ImapFlow>;
  readonly options?: Partial<MirrorOptions>;
  /** The FETCH fast path (one per gateway, see MirrorManager); a mirror of its own by default. */
  readonly leanFetch?: LeanFetch;
}

type MirrorEvents = { state: [MirrorState]; progress: [MirrorProgress]; error: [unknown] };

/**
 * Keeps one account's mailbox mirrored (DESIGN §3). One sync connection runs a queue:
 * the sync loop's steps (sweep, one folder step) and the commands of routes
 * (`withMailbox`) take turns on it. A second connection IDLEs on INBOX. A dropped sync
 * connection reconnects with exponential backoff (capped) and resyncs through the sweep.
 * A connection that died silently is found too: a sweep that gets no answer within
 * `sweepTimeoutMs`, or a NOOP before the first command after `livenessCheckMs` of quiet
 * that gets none within `livenessTimeoutMs`, closes it, and the same reconnect follows.
 */
export class AccountMirror extends EventEmitter<MirrorEvents> {
  readonly accountId: number;
  private readonly options: MirrorOptions;
  private readonly scheduler = new SyncScheduler();
  private readonly queue = new SerialQueue();
  private readonly vanished = new VanishedLog();
  private readonly leanFetch: LeanFetch;
  private readonly backoff: Backoff;
  private readonly idle: IdleWatcher;
  private readonly stopSignal = new AbortController();
  private wakeSignal = new AbortController();
  private readonly connection = new ConnectionGate<ImapFlow>();
  /** When the sync connection last finished a command (performance.now()). */
  private lastAnswerAt = 0;
  /**
   * Sweeps cut by their deadline in a row: each doubles the next deadline, so a slow
   * server (hundreds of folders without LIST-STATUS) is given the time it needs instead
   * of being reconnected forever; a sweep that ends resets it.
   */
  private sweepsCut = 0;
  private selectable: ReadonlySet<string> = new Set();
  private lastSweepChanged: string[] = [];
  private sweeps = 0;
  /** Folders whose last step failed, with the time until which sweeps do not schedule them. */
  private readonly coolingDown = new Map<string, number>();
  private loop: Promise<void> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private currentState: MirrorState = 'connecting';
  readonly progress: MirrorProgress = { firstInboxPageMs: null, fullyMirroredMs: null };
  private fullyMirrored!: () => void;
  /** Resolves once every folder has been mirrored completely for the first time. */
  readonly whenFullyMirrored = new Promise<void>((resolve) => (this.fullyMirrored = resolve));

  constructor(private readonly deps: AccountMirrorDeps) {
    super();
    // 'error' events report failures the mirror retries by itself; without a listener Node would throw them.
    this.on('error', () => undefined);
    this.accountId = deps.accountId;
    this.options = { ...DEFAULT_MIRROR_OPTIONS, ...deps.options };
    this.leanFetch = deps.leanFetch ?? new LeanFetch();
    this.backoff = new Backoff({ baseMs: this.options.backoffBaseMs, capMs: this.options.backoffCapMs });
    this.idle = new IdleWatcher({
      createClient: () => deps.createClient('idle'),
      backoff: new Backoff({ baseMs: this.options.backoffBaseMs, capMs: this.options.backoffCapMs }),
      livenessCheckMs: this.options.livenessCheckMs,
      livenessTimeoutMs: this.options.livenessTimeoutMs,
      onChange: (reason) => {
        // The watcher (re)connected, maybe after its connection died silently: the sync connection may be dead too, so prove it before the catch-up runs on it.
        if (reason === 'connected') this.lastAnswerAt = Number.NEGATIVE_INFINITY;
        this.scheduler.schedule({ kind: 'folder', path: 'INBOX' }, PRIORITY.inbox);
        this.scheduler.schedule({ kind: 'sweep' }, PRIORITY.sweep);
      },
      onError: (error) => this.emit('error', error),
    });
  }
  /** The store this mirror writes with (fenced by its lease's token when the account has one). */
  get store(): MirrorStore {
    return this.deps.store;
  }


  get state(): MirrorState {
    return this.currentState;
  }

  start(): void {
    if (this.loop) return;
    this.startedAt = performance.now();
    this.loop = this.run();
    this.idle.start();
    this.sweepTimer = setInterval(() => this.scheduler.schedule({ kind: 'sweep' }, PRIORITY.sweep), this.options.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopSignal.abort();
    this.wakeSignal.abort();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.scheduler.interrupt();
    const client = this.connection.value;
    if (client) await Promise.race([client.logout().catch(() => undefined), sleep(2000)]);
    client?.close();
    await Promise.all([this.loop, this.idle.stop()]);
    this.scheduler.rejectAll(new TernError('AccountUnavailable'));
    this.setState('stopped');
  }

  /** Skips a pending backoff wait (a fresh login may have brought a new password). */
  wake(): void {
    this.wakeSignal.abort();
  }

  /**
   * Syncs one folder now (or, without a path, sweeps the account and syncs what changed);
   * resolves when the mirror — and so the transaction log — reflects the server as of
   * this call. Routes call it after a command so the client's confirmation is in the log.
   */
  async resyncNow(folderPath?: string): Promise<void> {
    if (folderPath !== undefined) {
      const priority = folderPath === 'INBOX' ? PRIORITY.inbox : PRIORITY.changedFolder;
      return this.scheduler.request({ kind: 'folder', path: folderPath }, priority);
    }
    await this.scheduler.request({ kind: 'sweep' }, PRIORITY.sweep);
    // The sweep scheduled what changed; wait for those steps too.
    await Promise.all(this.lastSweepChanged.map((path) => this.resyncNow(path)));
  }

  /**
   * Runs `fn` on the account's connection with `path` selected, in turn with the sync
   * (never during one of its steps). Afterwards the folder is scheduled for a sync step;
   * call `resyncNow(path)` (and for a move, the destination's) to wait for it.
   * Fails with ImapConnectionFailed if no connection comes up within `connectWaitMs`.
   */
  async withMailbox<T>(path: string, fn: (client: ImapFlow, mailbox: MailboxObject) => Promise<T>): Promise<T> {
    if (this.stopSignal.signal.aborted) throw new TernError('AccountUnavailable');
    const client = await this.connection.wait(this.options.connectWaitMs);
    if (!client) throw new TernError('ImapConnectionFailed');
    return this.queue.run(async () => {
      if (client !== this.connection.value) throw new TernError('ImapConnectionLost');
      try {
        await this.proveAliveIfQuiet(client);
        const mailbox = await client.mailboxOpen(path);
        const result = await fn(client, mailbox);
        this.lastAnswerAt = performance.now();
        return result;
      } finally {
        this.scheduler.schedule({ kind: 'folder', path }, path === 'INBOX' ? PRIORITY.inbox : PRIORITY.changedFolder);
      }
    });
  }

  private setState(state: MirrorState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.emit('state', state);
  }

  /** Sessions one after another until stopped: a closed connection means reconnect after a backoff. */
  private async run(): Promise<void> {
    const stop = this.stopSignal.signal;
    while (!stop.aborted) {
      let failure: unknown = null;
      try {
        await this.session();
      } catch (error) {
        failure = error;
        if (!stop.aborted) this.emit('error', error);
      }
      if (stop.aborted) break;
      const authFailed = isAuthFailure(failure);
      this.setState(authFailed ? 'auth-failed' : 'backoff');
      // A refused password will not change by itself: wait the longest, unless a login wakes us.
      const delay = authFailed ? this.options.backoffCapMs : this.backoff.next();
      this.wakeSignal = new AbortController();
      await sleep(delay, AbortSignal.any([stop, this.wakeSignal.signal]));
    }
  }

  private async session(): Promise<void> {
    this.setState('connecting');
    const client = await this.deps.createClient('sync');
    if (this.stopSignal.signal.aborted) return; // stopped while the account was read: connect nowhere
    const closed = new Promise<void>((resolve) => client.once('close', resolve));
    client.on('expunge', (event) => {
      this.vanished.record(event);
      this.scheduleFolder(event.path);
    });
    client.on('exists', (event) => this.scheduleFolder(event.path));
    client.on('flags', (event) => this.scheduleFolder(event.path));
    try {
      await client.connect();
      this.lastAnswerAt = performance.now();
      this.connection.open(client);
      this.setState('syncing');
      // Catch up: the sweep finds what changed while we were away and schedules it.
      await this.queue.run(() => this.runTask(client, { kind: 'sweep' }));
      this.scheduler.schedule({ kind: 'folder', path: 'INBOX' }, PRIORITY.inbox);
      this.backoff.reset();
      await this.work(client, closed);
    } finally {
      this.connection.close(client);
      client.close();
    }
  }

  /** Takes tasks off the scheduler until the connection closes or the mirror stops. */
  private async work(client: ImapFlow, closed: Promise<void>): Promise<void> {
    let open = true;
    void closed.then(() => {
      open = false;
      this.scheduler.interrupt();
    });
    while (open && !this.stopSignal.signal.aborted) {
      const task = this.scheduler.take();
      if (!task) {
        await this.noteIdle();
        // A stop or a closed connection while noteIdle read the store found no waiter to wake.
        if (!open || this.stopSignal.signal.aborted) break;
        await this.scheduler.whenWork();
        continue;
      }
      this.setState('syncing');
      try {
        await this.queue.run(() => this.runTask(client, task));
        this.scheduler.finish(task);
      } catch (error) {
        this.scheduler.finish(task, error);
        if (!client.usable) throw error;
        // A command failed but the connection is fine (e.g. a folder deleted meanwhile): refresh the list,
        // and let sweeps leave that folder alone for a while so a folder that always fails cannot spin.
        this.emit('error', error);
        if (task.kind === 'folder') {
          this.coolingDown.set(task.path, Date.now() + FAILED_FOLDER_COOLDOWN_MS);
          this.scheduler.schedule({ kind: 'sweep' }, PRIORITY.sweep);
        }
      }
    }
    if (!this.stopSignal.signal.aborted) throw new TernError('ImapConnectionLost');
  }

  private async runTask(client: ImapFlow, task: SyncTask): Promise<void> {
    await this.proveAliveIfQuiet(client);
    await (task.kind === 'sweep' ? this.sweepWithinDeadline(client) : this.syncStep(client, task.path));
    this.lastAnswerAt = performance.now();
  }

  private async sweepWithinDeadline(client: ImapFlow): Promise<void> {
    const deadline = this.options.sweepTimeoutMs * 2 ** Math.min(this.sweepsCut, 5);
    await withinDeadline(client, this.sweep(client), deadline, () => this.sweepsCut++);
    this.sweepsCut = 0;
  }

  /**
   * A connection that has been quiet long enough to have died silently is asked a NOOP
   * first: a dead one is closed within `livenessTimeoutMs` instead of holding the queue
   * for the socket timeout (minutes). The sweep every `sweepIntervalMs` keeps it busy
   * normally, so this costs nothing then.
   */
  private async proveAliveIfQuiet(client: ImapFlow): Promise<void> {
    if (performance.now() - this.lastAnswerAt < this.options.livenessCheckMs) return;
    await proveAlive(client, this.options.livenessTimeoutMs);
    this.lastAnswerAt = performance.now();
  }

  private async syncStep(client: ImapFlow, path: string): Promise<void> {
    const { store, accountId } = this.deps;
    const folder = await store.folderByPath(accountId, path);
    if (!folder || !this.selectable.has(folder.path)) return;
    const cold = folder.uidvalidity === null && folder.path === 'INBOX';
    const pageSize = cold ? this.options.firstPageSize : this.options.pageSize;
    const result = await syncFolder({ client, store, accountId, folder, pageSize, vanished: this.vanished, leanFetch: this.leanFetch });
    this.coolingDown.delete(folder.path);
    if (folder.path === 'INBOX' && this.progress.firstInboxPageMs === null) {
      this.progress.firstInboxPageMs = Math.round(performance.now() - this.startedAt);
      this.emit('progress', { ...this.progress });
    }
    if (result.more) this.scheduler.schedule({ kind: 'folder', path: folder.path }, this.backfillPriority(folder.path));
  }

  /** The STATUS sweep: refreshes the folder list and schedules what changed (cold folders as backfill). */
  private async sweep(client: ImapFlow): Promise<void> {
    const { store, accountId } = this.deps;
    const result = await sweepFolders({ client, store, accountId });
    this.selectable = result.selectable;
    this.sweeps++;
    // Without CONDSTORE, STATUS cannot show flag changes: every few sweeps, every folder re-reads its flags.
    const recheckAll = !client.enabled.has('CONDSTORE') && this.sweeps % FLAG_RECHECK_SWEEPS === 0;
    const changed = recheckAll ? (await store.folders(accountId)).filter((row) => result.selectable.has(row.path)) : result.changed;
    this.lastSweepChanged = changed.map((row) => row.path);
    for (const row of changed) {
      if ((this.coolingDown.get(row.path) ?? 0) > Date.now()) continue;
      // A folder never mirrored is a backfill: INBOX's rest comes before other folders.
      if (row.uidvalidity === null && row.path !== 'INBOX') this.scheduler.schedule({ kind: 'folder', path: row.path }, PRIORITY.backfill);
      else this.scheduleFolder(row.path);
    }
    for (const row of result.backfilling) this.scheduler.schedule({ kind: 'folder', path: row.path }, this.backfillPriority(row.path));
  }

  private scheduleFolder(path: string): void {
    this.scheduler.schedule({ kind: 'folder', path }, path === 'INBOX' ? PRIORITY.inbox : PRIORITY.changedFolder);
  }

  private backfillPriority(path: string): number {
    return path === 'INBOX' ? PRIORITY.inboxBackfill : PRIORITY.backfill;
  }

  /** Nothing left to do: the first time every folder is complete, the cold sync is over. */
  private async noteIdle(): Promise<void> {
    this.setState('ready');
    if (this.progress.fullyMirroredMs !== null) return;
    const folders = (await this.deps.store.folders(this.accountId)).filter((row) => this.selectable.has(row.path));
    if (folders.length === 0 || folders.some((row) => row.backfilled_to !== 0)) return;
    this.progress.fullyMirroredMs = Math.round(performance.now() - this.startedAt);
    this.emit('progress', { ...this.progress });
    this.fullyMirrored();
  }
}
