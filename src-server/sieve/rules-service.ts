/**
 * Mail rules that run on the mail server (issue 16): the gateway keeps each account's rules
 * (rules-store.ts, the source of truth), writes them as the one script Tern owns
 * (script-writer.ts) and puts it on the account's ManageSieve server: CHECKSCRIPT, HAVESPACE,
 * PUTSCRIPT, SETACTIVE. A script the person already had active is never overwritten: Tern's
 * script includes it. The rules are stored only once the server took the script, so a refused
 * save leaves both the server and the stored rules as they were. A save, and each step of an
 * "apply to existing mail" run (rule-runs.ts), is a 'rules' entry in the account's transaction
 * log, announced: every device sees the new rules and the run's progress without a reload.
 */
import { TernError } from '../../shared/errors';
import { EMPTY_RULES, type MailFilter, type MailRules, type RuleRun, type RulesActivity, type RulesDoc } from '../../shared/mail-rules';
import type { Feature } from '../../shared/plans';
import type { AccountRecord, AccountStore } from '../accounts/account-store';
import { FolderRoles, roleIn } from '../actions/folder-roles';
import type { DomainServers } from '../config';
import { KeyedLock } from '../drafts/keyed-lock';
import type { MirrorManager } from '../mirror/mirror-manager';
import type { JobQueue } from '../jobs/job-queue';
import type { JobWorker } from '../jobs/job-worker';
import type { PlanService, TxnAnnouncer } from '../plans/plan-service';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import type { SmtpConnector } from '../smtp/smtp-connector';
import { applyActions, matchingUids } from './existing-mail';
import { checkForwarding, type ForwardingCheckResult } from './forwarding-check';
import { ManageSieveClient, SieveCommandError, type SieveEndpoint } from './managesieve-client';
import { RuleRunStore, type RunChange } from './rule-runs';
import { RulesStore, type StoredRules } from './rules-store';
import { rulesProblem } from './rules-checks';
import { TERN_SCRIPT_NAME, writeScript, zoneOffset } from './script-writer';
import { probeSieve, SIEVE_RECHECK_MS, sieveCandidates, type SieveConnect } from './sieve-discovery';

export interface RulesServiceDeps {
  readonly store: SqlStore;
  readonly accounts: Pick<AccountStore, 'get' | 'password'>;
  readonly plans: Pick<PlanService, 'require'>;
  readonly domains: ReadonlyMap<string, DomainServers>;
  /** Where a save and a run's progress are written for the devices (the delta's 'rules' upsert). */
  readonly txlog: Pick<TransactionLog, 'append'>;
  readonly push: TxnAnnouncer;
  /** "Apply to existing mail" runs as a 'rules.apply' job of this queue and worker. */
  readonly jobs?: { readonly queue: Pick<JobQueue, 'enqueue'>; readonly worker: Pick<JobWorker, 'register' | 'kick'> };
  /** Messages per step of a run (default existing-mail.ts APPLY_BATCH). */
  readonly applyBatch?: number;
  /**
   * Every address of the account (its own and each alias): the auto replies' `vacation
   * :addresses`, so mail to an alias is answered too. Default: the account's own address.
   */
  readonly addresses?: (accountId: number) => Promise<readonly string[]>;
  /** How the forwarding check's test message goes out (the account's own SMTP server). */
  readonly smtp?: SmtpConnector;
  readonly now?: () => number;
  /** How to reach a ManageSieve server (default ManageSieveClient.connect). */
  readonly connect?: SieveConnect;
  /** The accounts' IMAP mirrors ("apply to existing mail" runs through their queues). */
  readonly mirrors?: Pick<MirrorManager, 'withMailbox' | 'get'>;
  /** A background rewrite that failed (the DST check); the account's id, or null for the whole pass. */
  readonly onError?: (accountId: number | null, error: unknown) => void;
}

const DST_CHECK_MS = 60 * 60_000;
export const RULES_APPLY_JOB = 'rules.apply';

export interface SaveRulesParams {
  readonly accountId: number;
  readonly rules: MailRules;
  /** The revision the rules were edited from; another save since is RulesChanged. */
  readonly baseRevision: number;
}

export class RulesService {
  private readonly rules: RulesStore;
  private readonly runs: RuleRunStore;
  private readonly folderRoles: FolderRoles;
  private readonly lock = new KeyedLock<number>();
  /** One forwarding check per account at a time (each sends a message). */
  private readonly checks = new KeyedLock<number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: RulesServiceDeps) {
    this.rules = new RulesStore(deps.store);
    this.runs = new RuleRunStore(deps.store);
    this.folderRoles = new FolderRoles(deps.store);
    // The handler records its own failures (the run says "failed"; the person may start it again), so a
    // second attempt only follows a node that died mid-run: it runs the search again and does the rest.
    deps.jobs?.worker.register(RULES_APPLY_JOB, (payload) => this.runJob(payload), { maxAttempts: 3 });
  }

  /** The rules' revision and the recent runs (GET /api/rules/activity, the delta's 'rules' upsert). */
  async activity(accountId: number): Promise<RulesActivity> {
    const [stored, runs] = await Promise.all([this.rules.getRules(accountId), this.runs.recent(accountId, this.now())]);
    return { revision: stored.revision, runs };
  }

  /** The account's rules and whether its server can run them (found on first ask, then stored). */
  async get(accountId: number): Promise<RulesDoc> {
    const [stored, endpoint] = await Promise.all([this.rules.getRules(accountId), this.endpoint(accountId)]);
    return toDoc(stored, endpoint !== null);
  }

  /** Checks, writes and uploads the rules; resolves with the saved document. */
  save(params: SaveRulesParams): Promise<RulesDoc> {
    return this.lock.run(params.accountId, () => this.saveNow(params));
  }

  private async saveNow({ accountId, rules, baseRevision }: SaveRulesParams): Promise<RulesDoc> {
    const account = await this.account(accountId);
    const stored = await this.rules.getRules(accountId);
    if (baseRevision !== stored.revision) throw new TernError('RulesChanged', { detail: { revision: stored.revision } });
    for (const feature of gatedChanges(stored.rules, rules)) await this.deps.plans.require(accountId, feature);
    const folders = await this.folderRoles.folders(accountId);
    const problem = rulesProblem(rules, { folders: folders.map((folder) => folder.path), ownAddress: account.email });
    if (problem) throw new TernError(problem.error, { detail: problem.detail });

    const keptScript = await this.upload(account, stored, rules);
    const next: StoredRules = { revision: stored.revision + 1, rules, keptScript, updatedAt: this.now() };
    const latest = await this.deps.store.transaction(async () => {
      // The log entry first: it holds the account's row, so the document and its announcement go together.
      const latest = await this.deps.txlog.append(accountId, [{ object: 'rules', objectId: accountId }]);
      await this.rules.putRules(accountId, next);
      return latest;
    });
    this.deps.push.announce(accountId, latest);
    return toDoc(next, true);
  }

  /**
   * Starts a run of the filter over the mail already in the Inbox: the same checks as a save
   * (folders exist), then a 'rules.apply' job does the IMAP SEARCH and the actions (runJob).
   * Resolves at once with the run; its progress reaches the devices through delta.
   */
  async applyToExisting({ accountId, filter }: { accountId: number; filter: MailFilter }): Promise<RuleRun> {
    const account = await this.account(accountId);
    const folders = await this.folderRoles.folders(accountId);
    const problem = rulesProblem({ ...EMPTY_RULES, filters: [filter] }, { folders: folders.map((folder) => folder.path), ownAddress: account.email });
    if (problem) throw new TernError(problem.error, { detail: problem.detail });
    const jobs = this.deps.jobs;
    if (!jobs || !this.deps.mirrors) throw new TernError('ServiceNotFound');
    const { run, latest } = await this.deps.store.transaction(async () => {
      const latest = await this.deps.txlog.append(accountId, [{ object: 'rules', objectId: accountId }]);
      const run = await this.runs.create(accountId, filter, this.now());
      await jobs.queue.enqueue(RULES_APPLY_JOB, { runId: run.id }, this.now(), `rules.apply:${run.id}`);
      return { run, latest };
    });
    this.deps.push.announce(accountId, latest);
    jobs.worker.kick();
    return run;
  }

  /**
   * The 'rules.apply' job: SEARCH, then the actions a batch at a time, each step recorded and
   * announced. A run the job finds finished already (a second claim after a crash) is left.
   * Any failure ends the run 'failed' with its catalogue name; the mirror has the result first.
   */
  private async runJob(payload: unknown): Promise<void> {
    const runId = Number((payload as { runId?: unknown } | null)?.runId);
    const found = Number.isInteger(runId) ? await this.runs.get(runId) : undefined;
    if (!found || found.run.state !== 'running') return;
    const { accountId, filter } = found;
    try {
      const mirrors = this.deps.mirrors;
      if (!mirrors) throw new TernError('ServiceNotFound');
      const folders = await this.folderRoles.folders(accountId);
      const inbox = roleIn(folders, 'inbox')?.path ?? 'INBOX';
      const moved = await mirrors.withMailbox(accountId, inbox, async (client) => {
        const uids = await matchingUids(client, filter);
        await this.step(accountId, runId, { total: uids.length, done: 0 });
        return applyActions(client, uids, filter, roleIn(folders, 'trash')?.path ?? null, {
          ...(this.deps.applyBatch ? { batch: this.deps.applyBatch } : {}),
          onBatch: (done) => this.step(accountId, runId, { done }),
        });
      });
      // The mirror (and so every device) shows the result before the run says it is done.
      const mirror = mirrors.get(accountId);
      if (mirror) await Promise.all([inbox, ...moved].map((path) => mirror.resyncNow(path).catch((error: unknown) => this.deps.onError?.(accountId, error))));
      await this.step(accountId, runId, { state: 'done' });
    } catch (error) {
      this.deps.onError?.(accountId, error);
      await this.step(accountId, runId, { state: 'failed', error: toTernError(error).name });
    }
  }

  /** One step of a run: its row and a 'rules' log entry in one transaction, then the announcement. */
  private async step(accountId: number, runId: number, change: RunChange): Promise<void> {
    const latest = await this.deps.store.transaction(async () => {
      const latest = await this.deps.txlog.append(accountId, [{ object: 'rules', objectId: accountId }]);
      await this.runs.update(runId, change, this.now());
      return latest;
    });
    this.deps.push.announce(accountId, latest);
  }

  /**
   * Forwarding in: sends a test message to `address` and waits for it in this account's Inbox
   * (forwarding-check.ts). Resolves with whether it arrived; SendFailed when the account's SMTP
   * server refused it, InvalidParameter for the account's own address (that proves nothing).
   */
  async checkForwarding({ accountId, address }: { accountId: number; address: string }): Promise<ForwardingCheckResult> {
    const account = await this.account(accountId);
    if (address.trim().toLowerCase() === account.email.toLowerCase()) throw new TernError('InvalidParameter', { detail: { field: 'address', value: address } });
    const { mirrors, smtp } = this.deps;
    if (!mirrors || !smtp) throw new TernError('ServiceNotFound');
    const inbox = roleIn(await this.folderRoles.folders(accountId), 'inbox')?.path ?? 'INBOX';
    const password = await this.deps.accounts.password(accountId);
    return this.checks.run(accountId, () =>
      checkForwarding(
        { smtp, mirrors, now: () => this.now() },
        { account, password, address, inbox },
      ),
    );
  }

  /**
   * Daylight saving time: Sieve's zones are fixed offsets, so a business-hours script written in
   * winter would be an hour off in summer. Every account whose business-hours zone has another
   * offset now than when its script was written gets the same rules written again (its revision
   * stays: the rules did not change). Run hourly by start(); harmless on several nodes at once.
   */
  async rewriteForZoneChanges(): Promise<number[]> {
    const rewritten: number[] = [];
    for (const { accountId, stored } of await this.rules.withBusinessHours()) {
      const zone = stored.rules.businessHours.timeZone;
      if (zoneOffset(zone, new Date(stored.updatedAt)) === zoneOffset(zone, new Date(this.now()))) continue;
      try {
        await this.lock.run(accountId, async () => {
          const current = await this.rules.getRules(accountId);
          if (current.revision !== stored.revision) return; // saved meanwhile, with today's offset
          const keptScript = await this.upload(await this.account(accountId), current, current.rules);
          await this.rules.putRules(accountId, { ...current, keptScript, updatedAt: this.now() });
          rewritten.push(accountId);
        });
      } catch (error) {
        this.deps.onError?.(accountId, error);
      }
    }
    return rewritten;
  }

  /**
   * The account's addresses changed (an alias added or removed): its auto replies' `:addresses`
   * are in the script, so the same rules are written again (the revision stays). Nothing to do
   * without an auto reply, or before the first save. Resolves true when the script was rewritten.
   */
  async addressesChanged(accountId: number): Promise<boolean> {
    return this.lock.run(accountId, async () => {
      const current = await this.rules.getRules(accountId);
      if (current.revision === 0 || !(current.rules.autoReply.enabled || current.rules.businessHours.enabled)) return false;
      const keptScript = await this.upload(await this.account(accountId), current, current.rules);
      await this.rules.putRules(accountId, { ...current, keptScript, updatedAt: this.now() });
      return true;
    });
  }

  /** Starts the hourly DST check (the offset changes on the hour in every zone that has DST). */
  start(): void {
    this.timer ??= setInterval(() => void this.rewriteForZoneChanges().catch((error: unknown) => this.deps.onError?.(null, error)), DST_CHECK_MS);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Writes the rules as Tern's script on the account's server and makes it active; resolves with the kept script's name. */
  private async upload(account: AccountRecord, stored: StoredRules, rules: MailRules): Promise<string | null> {
    const endpoint = await this.endpoint(account.id);
    if (!endpoint) throw new TernError('SieveUnavailable');
    const folders = await this.folderRoles.folders(account.id);
    return this.withClient(account, endpoint, async (client) => {
      const scripts = await client.listScripts();
      const active = scripts.find((script) => script.active);
      // The person's own script: the one active now if it is not ours, else the one kept before (if it still exists).
      const kept =
        active && active.name !== TERN_SCRIPT_NAME ? active.name : stored.keptScript && scripts.some((script) => script.name === stored.keptScript) ? stored.keptScript : null;
      const script = writeScript(rules, {
        spamFolder: roleIn(folders, 'junk')?.path ?? null,
        trashFolder: roleIn(folders, 'trash')?.path ?? null,
        addresses: await this.addresses(account),
        includeScript: kept,
        now: new Date(this.now()),
      });
      await client.checkScript(script);
      await client.haveSpace(TERN_SCRIPT_NAME, Buffer.byteLength(script));
      await client.putScript(TERN_SCRIPT_NAME, script);
      if (active?.name !== TERN_SCRIPT_NAME) await client.setActive(TERN_SCRIPT_NAME);
      return kept;
    });
  }

  /** The account's ManageSieve server, discovered on first need (and again a day after finding none). */
  private async endpoint(accountId: number): Promise<SieveEndpoint | null> {
    const known = await this.rules.getServer(accountId);
    if (known && (known.endpoint || this.now() - known.checkedAt < SIEVE_RECHECK_MS)) return known.endpoint;
    const account = await this.account(accountId);
    const found = await probeSieve({
      candidates: sieveCandidates(account, this.deps.domains),
      user: account.email,
      password: await this.deps.accounts.password(accountId),
      ...(this.deps.connect ? { connect: this.deps.connect } : {}),
    });
    await this.rules.putServer(accountId, found, this.now());
    return found;
  }

  private async withClient<T>(account: AccountRecord, endpoint: SieveEndpoint, work: (client: ManageSieveClient) => Promise<T>): Promise<T> {
    let client: ManageSieveClient;
    try {
      client = await (this.deps.connect ?? ManageSieveClient.connect)({
        ...endpoint,
        user: account.email,
        password: await this.deps.accounts.password(account.id),
      });
    } catch (error) {
      throw new TernError('AccountUnavailable', { detail: { sieve: error instanceof Error ? error.message : String(error) } });
    }
    try {
      return await work(client);
    } catch (error) {
      throw toTernError(error);
    } finally {
      await client.logout();
    }
  }

  /** The account's own address first, then its aliases, each once. */
  private async addresses(account: AccountRecord): Promise<string[]> {
    const more = this.deps.addresses ? await this.deps.addresses(account.id) : [];
    return [...new Set([account.email, ...more].map((address) => address.trim().toLowerCase()))];
  }

  private async account(accountId: number): Promise<AccountRecord> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound', { detail: { accountId } });
    return account;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}

function toDoc(stored: StoredRules, available: boolean): RulesDoc {
  return { availability: available ? 'available' : 'unavailable', revision: stored.revision, rules: stored.rules ?? EMPTY_RULES, keptScript: stored.keptScript, updatedAt: stored.updatedAt };
}

/** The server's NO as the catalogue says it: QUOTA/* is TooLargeSieveUpdate, anything else a refusal with its text. */
function toTernError(error: unknown): TernError {
  if (error instanceof TernError) return error;
  if (error instanceof SieveCommandError) {
    if (error.isQuota) return new TernError('TooLargeSieveUpdate', { detail: { server: error.response.text } });
    return new TernError('SieveScriptRejected', { detail: { command: error.command, server: error.response.text } });
  }
  return new TernError('AccountUnavailable', { detail: { sieve: error instanceof Error ? error.message : String(error) } });
}

/** Plan features a change touches: block/allow lists and the business-hours auto reply (spec §6's paywall list). */
function gatedChanges(before: MailRules, after: MailRules): Feature[] {
  const features: Feature[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same([before.blocked, before.allowed, before.blockAction], [after.blocked, after.allowed, after.blockAction]) && (after.blocked.length > 0 || after.allowed.length > 0)) {
    features.push('allowBlockLists');
  }
  if (!same(before.businessHours, after.businessHours) && after.businessHours.enabled) features.push('businessAutoReply');
  return features;
}
