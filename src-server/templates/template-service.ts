import { TernError } from '../../shared/errors';
import { MAX_TEMPLATE_CHARS, MAX_TEMPLATES, type Template, type TemplateChanges, type TemplateInput } from '../../shared/templates';
import { readCursor, writeCursor } from '../contacts/contact-store';
import type { PlanService, TxnAnnouncer } from '../plans/plan-service';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { TemplateStore, type TemplateRow } from './template-store';

const toTemplate = ({ changedTxn: _txn, deleted: _deleted, ...template }: TemplateRow): Template => template;

/**
 * The templates of each account (issue 14 point 3; shared/templates.ts). Every change is one
 * transaction that appends a 'templates' entry to the account's transaction log and stamps
 * the template with that entry's id, so the changes form a stream each device reads from its
 * own cursor (the spec's emailTemplateCursor), and the push hub wakes the other devices.
 * Writing needs the plan's `templates`; reading and deleting do not (a lapsed plan keeps
 * what was written and may clear it).
 */
export class TemplateService {
  private readonly rows: TemplateStore;

  constructor(
    private readonly deps: {
      store: SqlStore;
      txlog: Pick<TransactionLog, 'append'>;
      push: TxnAnnouncer;
      plans: Pick<PlanService, 'require'>;
      now?: () => number;
    },
  ) {
    this.rows = new TemplateStore(deps.store);
  }

  /** Templates changed after `since` (live ones whole, deleted ones by id), oldest change first. */
  async changes(accountId: number, since: string, limit: number): Promise<TemplateChanges> {
    const rows = await this.rows.changes(accountId, readCursor(since), limit + 1);
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    const last = page.at(-1);
    return {
      templates: page.filter((row) => !row.deleted).map(toTemplate),
      deleted: page.filter((row) => row.deleted).map((row) => row.id),
      cursor: last ? writeCursor({ txn: last.changedTxn, id: last.id }) : since,
      hasMore,
    };
  }

  /**
   * Creates the template under the device's id or replaces it. A body past
   * MAX_TEMPLATE_CHARS is TemplateTooLarge, a new one past MAX_TEMPLATES TemplateLimitReached;
   * nothing is written then.
   */
  async put(accountId: number, id: string, input: TemplateInput): Promise<Template> {
    await this.deps.plans.require(accountId, 'templates');
    if (input.bodyHtml.length > MAX_TEMPLATE_CHARS) {
      throw new TernError('TemplateTooLarge', { detail: { limit: MAX_TEMPLATE_CHARS, length: input.bodyHtml.length, template: id } });
    }
    await this.change(accountId, async (at) => {
      const old = await this.rows.get(accountId, id);
      if ((!old || old.deleted) && (await this.rows.liveCount(accountId)) >= MAX_TEMPLATES) {
        throw new TernError('TemplateLimitReached', { detail: { max: MAX_TEMPLATES } });
      }
      await this.rows.put(accountId, id, input, at);
      return true;
    });
    const row = await this.rows.get(accountId, id);
    return toTemplate(row!);
  }

  /** Deletes a template (a tombstone every device learns of); an unknown or deleted one is fine. */
  async delete(accountId: number, id: string): Promise<void> {
    await this.change(accountId, (at) => this.rows.setDeleted(accountId, id, at));
  }

  /** The txlog id of the account's latest template change (the delta's 'templates' upsert carries it). */
  revision(accountId: number): Promise<number> {
    return this.rows.revision(accountId);
  }

  /**
   * One change in a transaction: the log entry first (on PostgreSQL it holds the account's
   * row, so two changes of one account take turns), then `body` with its id. A body that
   * changed nothing (false) rolls the entry back, so a repeated delete wakes nobody.
   */
  private async change(accountId: number, body: (at: { now: number; txn: number }) => Promise<boolean>): Promise<void> {
    const now = (this.deps.now ?? Date.now)();
    const NOTHING = Symbol('nothing');
    const latest = await this.deps.store
      .transaction(async () => {
        const txn = await this.deps.txlog.append(accountId, [{ object: 'templates', objectId: accountId }]);
        if (!(await body({ now, txn }))) throw NOTHING;
        return txn;
      })
      .catch((error: unknown) => {
        if (error === NOTHING) return null;
        throw error;
      });
    if (latest !== null) this.deps.push.announce(accountId, latest);
  }
}
