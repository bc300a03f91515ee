/**
 * Auto-clean (issue 17 point 3): per-account rules the gateway runs every hour with every
 * browser closed — "newsletters older than 30 days → Trash", "from X older than a week →
 * Archive". Sieve acts on arriving mail only, so this is a job (jobs/): `autoclean.run` per
 * account and hour slot, which runs the account's enabled rules and enqueues the next slot.
 * The job queue's claim gives each run one worker in a cluster, its attempt fences a lapsed
 * claim (the handler stops writing once its signal aborts), and the account's lane keeps its
 * runs one at a time; the IMAP commands go through the account's mirror queue where it runs.
 *
 * Safety: a run moves what a preview (dry run) would list at that moment, never starred,
 * draft or deleted mail, never the newest `keepNewest` messages of a conversation (a message
 * alone in its thread is no conversation: an old newsletter is cleaned), never from Sent,
 * Drafts, Trash or Spam. A rule that would touch everything (no sender and no newsletter
 * condition, or more than AUTO_CLEAN_LIMITS.confirmOver messages, or all of its folder) is
 * refused (AutoCleanConfirmRequired) until the person confirms it. Every run is logged with
 * what it moved, and can be undone while the moved mail is still where it went.
 */
import type { ImapFlow, MailboxObject } from 'imapflow';
import {
  AUTO_CLEAN_LIMITS,
  fieldProblem,
  normalSender,
  ruleProblems,
  ruleTitle,
  touchesEverything,
  type AutoCleanDoc,
  type AutoCleanInput,
  type AutoCleanPreview,
  type AutoCleanRun,
  type FieldProblem,
} from '../../shared/auto-clean';
import { TernError } from '../../shared/errors';
import { roleIn, type FolderRef, type FolderRoles } from '../actions/folder-roles';
import type { MailboxAccess } from '../actions/mailbox-access';
import type { JobQueue } from '../jobs/job-queue';
import type { JobWorker } from '../jobs/job-worker';
import type { PlanService } from '../plans/plan-service';
import type { SqlStore } from '../store/sql';
import { matchingMessages, moveBack, moveOut, type Candidate } from './auto-clean-imap';
import { AutoCleanStore, toWireRule, type RuleFields, type RuleRow } from './auto-clean-store';

export const AUTO_CLEAN_JOB = 'autoclean.run';
const HOUR_MS = 60 * 60_000;
/** Roles a rule never takes mail from. */
const NEVER_FROM = ['sent', 'drafts', 'trash', 'junk'] as const;

export interface AutoCleanServiceDeps {
  readonly store: SqlStore;
  readonly plans: Pick<PlanService, 'has'>;
  readonly access: Pick<MailboxAccess, 'withFolder' | 'settle'>;
  readonly roles: Pick<FolderRoles, 'folders'>;
  readonly jobs: { readonly queue: Pick<JobQueue, 'enqueue'>; readonly worker: Pick<JobWorker, 'register' | 'kick'> };
  readonly now?: () => number;
  readonly onError?: (accountId: number, error: unknown) => void;
}

/** A rule's folders: where it takes mail from and where it puts it. */
interface Route {
  readonly source: FolderRef;
  readonly target: FolderRef;
  /** Folders whose messages do not count as a conversation's newest (Trash, Spam). */
  readonly leftOut: readonly number[];
}

/** What a rule picks in its folder now: what moves, and what is kept although it matched. */
interface Selection {
  readonly moving: Candidate[];
  readonly starred: number;
  readonly newest: number;
  readonly folderTotal: number;
}

const invalid = (problems: readonly FieldProblem[]) => new TernError('AutoCleanRuleInvalid', { detail: { fields: problems } });

export class AutoCleanService {
  private readonly rows: AutoCleanStore;
  private readonly now: () => number;

  constructor(private readonly deps: AutoCleanServiceDeps) {
    this.rows = new AutoCleanStore(deps.store);
    this.now = deps.now ?? Date.now;
    deps.jobs.worker.register(AUTO_CLEAN_JOB, (payload, context) => this.scheduled(payload as { accountId: number }, context.signal), { maxAttempts: 3 });
  }

  /** GET /api/auto-clean: the rules and the log of runs. */
  async doc(accountId: number): Promise<AutoCleanDoc> {
    return { rules: (await this.rows.rules(accountId)).map(toWireRule), runs: await this.rows.runs(accountId) };
  }

  /** POST /api/auto-clean/preview: what the rule as typed would move now (nothing is saved or moved). */
  async preview(accountId: number, input: AutoCleanInput): Promise<AutoCleanPreview> {
    const fields = this.checked(input);
    const route = await this.route(accountId, fields);
    return this.previewOf(fields, await this.select(accountId, fields, route), route);
  }

  /** POST /api/auto-clean/rules: a new rule; enabled, it must pass its confirmation, and its hourly job starts. */
  async create(accountId: number, input: AutoCleanInput): Promise<AutoCleanDoc> {
    const fields = this.checked(input);
    if ((await this.rows.count(accountId)) >= AUTO_CLEAN_LIMITS.perAccount) throw new TernError('AutoCleanLimitReached');
    const route = await this.route(accountId, fields);
    const folded = { ...fields, folderPath: route.source.path };
    if (folded.enabled) await this.requireConfirmation(accountId, folded, route);
    await this.rows.insert(accountId, folded, this.now());
    if (folded.enabled) await this.schedule(accountId);
    return this.doc(accountId);
  }

  /** PUT /api/auto-clean/rules/:id: changed (enabling is a change like any other). */
  async update(accountId: number, id: number, input: AutoCleanInput): Promise<AutoCleanDoc> {
    const fields = this.checked(input);
    if (!(await this.rows.rule(accountId, id))) throw new TernError('AutoCleanRuleNotFound');
    const route = await this.route(accountId, fields);
    const folded = { ...fields, folderPath: route.source.path };
    if (folded.enabled) await this.requireConfirmation(accountId, folded, route);
    if (!(await this.rows.update(accountId, id, folded, this.now()))) throw new TernError('AutoCleanRuleNotFound');
    if (folded.enabled) await this.schedule(accountId);
    return this.doc(accountId);
  }

  /** DELETE /api/auto-clean/rules/:id: its log stays. */
  async remove(accountId: number, id: number): Promise<AutoCleanDoc> {
    if (!(await this.rows.remove(accountId, id))) throw new TernError('AutoCleanRuleNotFound');
    return this.doc(accountId);
  }

  /** POST /api/auto-clean/rules/:id/run: the rule now (enabled or not), logged like a scheduled run. */
  async runNow(accountId: number, id: number): Promise<AutoCleanRun> {
    const rule = await this.rows.rule(accountId, id);
    if (!rule) throw new TernError('AutoCleanRuleNotFound');
    const route = await this.route(accountId, rule);
    const runId = await this.runRule(rule, route, 'manual');
    return (await this.rows.run(accountId, runId))!;
  }

  /** POST /api/auto-clean/runs/:id/undo: the run's mail back where it was, as far as it is still there. */
  async undo(accountId: number, runId: number): Promise<AutoCleanRun> {
    const run = await this.rows.run(accountId, runId);
    if (!run) throw new TernError('AutoCleanUndoUnavailable');
    if (run.undoneAt !== null || run.count === 0) throw new TernError('AutoCleanUndoUnavailable', { detail: { runId: run.id } });
    const moves = await this.rows.moves(runId);
    const folders = await this.deps.roles.folders(accountId);
    // The folder it came from may have been renamed away since: then nothing can go back there.
    const restored = folders.some((folder) => folder.path === run.fromPath)
      ? await this.deps.access.withFolder(accountId, run.toPath, (client, mailbox) => moveBack(client, Number(mailbox.uidValidity), moves, run.fromPath))
      : 0;
    await this.deps.access.settle(accountId, [run.fromPath, run.toPath]);
    if (!(await this.rows.markUndone(accountId, runId, { restored, lost: moves.length - restored }, this.now()))) throw new TernError('AutoCleanUndoUnavailable');
    return (await this.rows.run(accountId, runId))!;
  }

  /** The account's next hourly run (one pending per slot, whatever the number of nodes or saves). */
  private async schedule(accountId: number): Promise<void> {
    const slot = Math.floor(this.now() / HOUR_MS) + 1;
    await this.deps.jobs.queue.enqueue(AUTO_CLEAN_JOB, { accountId, slot }, slot * HOUR_MS, `autoclean:${accountId}:${slot}`, `autoclean:${accountId}`);
    this.deps.jobs.worker.kick();
  }

  /** The hourly job: each enabled rule, then the next slot while a rule is enabled. */
  private async scheduled(payload: { accountId: number }, signal: AbortSignal): Promise<void> {
    const accountId = Number(payload.accountId);
    if (await this.deps.plans.has(accountId, 'autoClean')) {
      for (const rule of await this.rows.rules(accountId)) {
        if (!rule.enabled || signal.aborted) continue;
        try {
          const route = await this.route(accountId, rule);
          await this.runRule(rule, route, 'schedule', signal);
        } catch (error) {
          // One rule's failure (a folder deleted since) is its log entry; the others still run.
          if (signal.aborted) return;
          this.deps.onError?.(accountId, error);
          await this.rows.recordRun({ accountId, ruleId: rule.id, ruleName: ruleTitle(rule), trigger: 'schedule', at: this.now(), fromPath: rule.folderPath, toPath: '', subjects: [], error: errorName(error), moves: [] });
        }
      }
    }
    if (!signal.aborted && (await this.rows.anyEnabled(accountId))) await this.schedule(accountId);
  }

  /** One run: select and move in one turn on the folder, then log it. A rule that would touch everything and was not confirmed moves nothing. */
  private async runRule(rule: RuleRow, route: Route, trigger: 'schedule' | 'manual', signal?: AbortSignal): Promise<number> {
    const accountId = rule.accountId;
    const at = this.now();
    const outcome = await this.deps.access.withFolder(accountId, route.source.path, async (client, mailbox) => {
      const selection = await this.selectOn(client, mailbox, accountId, rule, route, at);
      if (!rule.confirmed && touchesEverything(rule, { count: selection.moving.length, folderTotal: selection.folderTotal })) return { selection, moves: null };
      if (signal?.aborted) return { selection, moves: [] };
      const moving = selection.moving.slice(0, AUTO_CLEAN_LIMITS.perRun);
      return { selection: { ...selection, moving }, moves: await moveOut(client, moving, route.target.path) };
    });
    if (outcome.moves === null && trigger === 'manual') throw confirmationError(outcome.selection);
    if (outcome.moves && outcome.moves.length > 0) await this.deps.access.settle(accountId, [route.source.path, route.target.path]);
    if (signal?.aborted) throw new Error('The run lost its claim.');
    // An hourly run that found nothing is no news: the log keeps what moved (and every Run now).
    if (trigger === 'schedule' && outcome.moves !== null && outcome.moves.length === 0) {
      await this.rows.touch(accountId, rule.id, at);
      return 0;
    }
    return this.rows.recordRun({
      accountId,
      ruleId: rule.id,
      ruleName: ruleTitle(rule),
      trigger,
      at,
      fromPath: route.source.path,
      toPath: route.target.path,
      subjects: outcome.selection.moving.slice(0, AUTO_CLEAN_LIMITS.sample * 5).map((message) => message.subject),
      error: outcome.moves === null ? 'AutoCleanConfirmRequired' : null,
      moves: outcome.moves ?? [],
    });
  }

  private async requireConfirmation(accountId: number, rule: RuleFields, route: Route): Promise<void> {
    if (rule.confirmed) return;
    const selection = await this.select(accountId, rule, route);
    if (touchesEverything(rule, { count: selection.moving.length, folderTotal: selection.folderTotal })) throw confirmationError(selection);
  }

  private select(accountId: number, rule: RuleFields, route: Route): Promise<Selection> {
    return this.deps.access.withFolder(accountId, route.source.path, (client, mailbox) => this.selectOn(client, mailbox, accountId, rule, route, this.now()));
  }

  /** What the rule picks in the selected folder: the server's matches less the starred and each conversation's newest. */
  private async selectOn(client: ImapFlow, mailbox: MailboxObject, accountId: number, rule: RuleFields, route: Route, now: number): Promise<Selection> {
    const matched = await matchingMessages(client, rule, now);
    const unstarred = matched.filter((message) => !message.starred);
    const protectedUids = await this.newestOfThreads(accountId, route, unstarred.map((message) => message.uid), rule.keepNewest);
    const moving = unstarred.filter((message) => !protectedUids.has(message.uid));
    return { moving, starred: matched.length - unstarred.length, newest: unstarred.length - moving.length, folderTotal: mailbox.exists };
  }

  /**
   * Which of these UIDs are among the `keep` newest messages of a conversation of two or more
   * (by the mirror's threads, across folders but Trash and Spam). A UID the mirror has not
   * seen yet is kept: its conversation is not known.
   */
  private async newestOfThreads(accountId: number, route: Route, uids: readonly number[], keep: number): Promise<Set<number>> {
    const kept = new Set<number>();
    if (uids.length === 0) return kept;
    const threads = await this.rows.threadsOf(route.source.id, uids);
    for (const uid of uids) if (!threads.has(uid)) kept.add(uid);
    if (keep === 0) return kept;
    const members = await this.rows.threadMembers(accountId, [...new Set(threads.values())], route.leftOut);
    const byThread = new Map<number, { folderId: number; uid: number }[]>();
    for (const member of members) byThread.set(member.threadId, [...(byThread.get(member.threadId) ?? []), member]);
    for (const list of byThread.values()) {
      if (list.length < 2) continue;
      for (const member of list.slice(0, keep)) if (member.folderId === route.source.id) kept.add(member.uid);
    }
    return kept;
  }

  private previewOf(rule: RuleFields, selection: Selection, route: Route): AutoCleanPreview {
    const count = selection.moving.length;
    return {
      count,
      folderTotal: selection.folderTotal,
      folderPath: route.source.path,
      kept: { starred: selection.starred, newest: selection.newest },
      sample: [...selection.moving]
        .sort((a, b) => b.date - a.date)
        .slice(0, AUTO_CLEAN_LIMITS.sample)
        .map((message) => ({ uid: message.uid, subject: message.subject, from: message.from, date: message.date })),
      uids: selection.moving.map((message) => message.uid),
      needsConfirmation: touchesEverything(rule, { count, folderTotal: selection.folderTotal }),
    };
  }

  /** The rule as typed, checked field by field (AutoCleanRuleInvalid), the sender in its normal form. */
  private checked(input: AutoCleanInput): RuleFields {
    const problems = ruleProblems(input);
    if (input.folderId !== null && !/^[1-9]\d{0,15}$/.test(input.folderId)) problems.push(fieldProblem('folderId', 'folderMissing'));
    if (problems.length > 0) throw invalid(problems);
    return {
      name: input.name.trim(),
      sender: input.sender.trim() === '' ? '' : normalSender(input.sender)!,
      newsletters: input.newsletters,
      folderId: input.folderId === null ? null : Number(input.folderId),
      folderPath: '',
      ageDays: input.ageDays,
      action: input.action,
      keepNewest: input.keepNewest,
      enabled: input.enabled,
      confirmed: input.confirmed === true,
    };
  }

  /** Where the rule takes mail from (its folder, or the Inbox) and puts it (Trash or Archive); refused folders are field problems. */
  private async route(accountId: number, rule: Pick<RuleFields, 'folderId' | 'action'>): Promise<Route> {
    const folders = await this.deps.roles.folders(accountId);
    const source = rule.folderId === null ? roleIn(folders, 'inbox') : folders.find((folder) => folder.id === rule.folderId);
    if (!source) throw invalid([fieldProblem('folderId', 'folderMissing')]);
    if (NEVER_FROM.some((role) => roleIn(folders, role)?.id === source.id)) throw invalid([fieldProblem('folderId', 'folderRefused')]);
    const target = roleIn(folders, rule.action);
    if (!target) throw invalid([fieldProblem('action', rule.action === 'archive' ? 'noArchive' : 'noTrash')]);
    if (target.id === source.id) throw invalid([fieldProblem('folderId', 'folderIsTarget')]);
    const leftOut = (['trash', 'junk'] as const).flatMap((role) => roleIn(folders, role)?.id ?? []);
    return { source, target, leftOut };
  }
}

function confirmationError(selection: Selection): TernError {
  return new TernError('AutoCleanConfirmRequired', { detail: { count: selection.moving.length, folderTotal: selection.folderTotal } });
}

function errorName(error: unknown): string {
  return error instanceof TernError ? error.name : 'OperationFailed';
}
