import type { LabelInput, LabelPatch, LabelsDoc } from '../../shared/api/labels';
import { TernError } from '../../shared/errors';
import { keywordForName, LABEL_LIMITS, labelNameProblem, type Label } from '../../shared/labels';
import { isImportantKeyword } from '../../shared/priority-score';
import type { MailboxAccess } from '../actions/mailbox-access';
import { compactUidSet } from '../imap/uid-set';
import type { PlanService, TxnAnnouncer } from '../plans/plan-service';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { LabelStore } from './label-store';

export interface LabelServiceDeps {
  readonly store: SqlStore;
  readonly txlog: Pick<TransactionLog, 'append'>;
  readonly push: TxnAnnouncer;
  readonly plans: Pick<PlanService, 'require'>;
  /** The account's IMAP connection, to take a deleted label's keyword off its mail and to read PERMANENTFLAGS. */
  readonly access: Pick<MailboxAccess, 'withFolder' | 'settle'>;
  readonly now?: () => number;
}

/**
 * The label table of each account (issue 17 point 1; the model in shared/labels.ts). A
 * change is one transaction that also appends a 'labels' entry to the account's
 * transaction log, so every device gets the new table through delta. Applying a label is
 * a bulk action (actions/action-service.ts), which asks `requireKeyword` first.
 */
export class LabelService {
  private readonly labels: LabelStore;
  /** What each account's server said of PERMANENTFLAGS \* (asked on GET, outside any transaction: delta reads this copy). */
  private readonly keeps = new Map<number, boolean>();

  constructor(private readonly deps: LabelServiceDeps) {
    this.labels = new LabelStore(deps.store);
  }

  /** The table as the delta carries it (no IMAP: called inside delta's read transaction). */
  async doc(accountId: number): Promise<LabelsDoc> {
    return { labels: await this.labels.list(accountId), serverKeepsLabels: this.keeps.get(accountId) ?? null };
  }

  /** GET /api/labels: the table, having asked the server whether it keeps new keywords. */
  async get(accountId: number): Promise<LabelsDoc> {
    await this.probe(accountId);
    return this.doc(accountId);
  }

  async create(accountId: number, input: LabelInput): Promise<LabelsDoc> {
    await this.deps.plans.require(accountId, 'labels');
    const name = input.name.trim();
    await this.change(accountId, async (labels) => {
      const problem = labelNameProblem(name, labels);
      if (problem) throw problem;
      if (labels.length >= LABEL_LIMITS.perAccount) throw new TernError('LabelLimitReached', { detail: { max: LABEL_LIMITS.perAccount } });
      const keyword = keywordForName(name, labels.map((label) => label.keyword));
      await this.labels.insert(accountId, { keyword, name, color: input.color, now: (this.deps.now ?? Date.now)() });
    });
    return this.doc(accountId);
  }

  /** Rename or recolour; the keyword stays, so the mail keeps its label everywhere. */
  async update(accountId: number, id: number, patch: LabelPatch): Promise<LabelsDoc> {
    await this.deps.plans.require(accountId, 'labels');
    await this.change(accountId, async (labels) => {
      const label = labels.find((candidate) => candidate.id === String(id));
      if (!label) throw new TernError('LabelNotFound');
      const name = patch.name === undefined ? label.name : patch.name.trim();
      const problem = labelNameProblem(name, labels.filter((other) => other.id !== label.id));
      if (problem) throw problem;
      await this.labels.update(accountId, id, { name, color: patch.color ?? label.color });
    });
    return this.doc(accountId);
  }

  /**
   * Takes the label's keyword off every mirrored message that has it (one STORE per folder),
   * then removes the label. A failure halfway leaves the label, so deleting again finishes it.
   */
  async delete(accountId: number, id: number): Promise<LabelsDoc> {
    await this.deps.plans.require(accountId, 'labels');
    const label = await this.labels.get(accountId, id);
    if (!label) throw new TernError('LabelNotFound');
    const carriers = await this.labels.carriers(accountId, label.keyword);
    try {
      for (const [path, uids] of carriers) {
        await this.deps.access.withFolder(accountId, path, async (client) => {
          if ((await client.messageFlagsRemove(compactUidSet(uids), [label.keyword], { uid: true })) === false) throw new TernError('OperationFailed', { detail: { folder: path } });
        });
      }
    } finally {
      await this.deps.access.settle(accountId, carriers.keys());
    }
    await this.change(accountId, () => this.labels.delete(accountId, id));
    return this.doc(accountId);
  }

  /**
   * A bulk action's `label` / `unlabel`: the plan has labels and the keyword is one of the
   * account's — or it is $Important, the priority inbox's mark (RFC 8457; issue 17 point 4),
   * which is no label: no row, no plan gate (shared/plans.ts gives the priority inbox none).
   */
  async requireKeyword(accountId: number, keyword: string): Promise<void> {
    if (isImportantKeyword(keyword)) return;
    await this.deps.plans.require(accountId, 'labels');
    if (!(await this.labels.byKeyword(accountId, keyword))) throw new TernError('LabelNotFound', { detail: { keyword } });
  }

  /** One change of the table and its log entry in one transaction, announced after commit. */
  private async change(accountId: number, write: (labels: Label[]) => Promise<void>): Promise<void> {
    const latest = await this.deps.store.transaction(async () => {
      // The log entry first: on PostgreSQL it holds the account's row until commit, so two
      // changes of one account take turns and each sees the other's labels.
      const txn = await this.deps.txlog.append(accountId, [{ object: 'labels', objectId: accountId }]);
      await write(await this.labels.list(accountId));
      return txn;
    });
    this.deps.push.announce(accountId, latest);
  }

  /** Asks the INBOX's PERMANENTFLAGS; an unreachable server leaves the last answer. */
  private async probe(accountId: number): Promise<void> {
    try {
      const keeps = await this.deps.access.withFolder(accountId, 'INBOX', async (_client, mailbox) => mailbox.permanentFlags?.has('\\*') ?? false);
      this.keeps.set(accountId, keeps);
    } catch {
      // Not known yet: the doc says null, the page says nothing.
    }
  }
}
