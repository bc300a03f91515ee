/**
 * The engine's templates (issue 14 point 3; shared/templates.ts): cached in each account's
 * EmailTemplate table, pulled from the gateway's changes stream from the Account's
 * emailTemplateCursor (at start and whenever the delta says they changed, on any device),
 * and shown to the tabs with the account's settings. A change goes to the gateway first
 * (the plan and the limits are its to decide, like identities), then the pull brings it here.
 */
import type { Account } from '../../shared/account';
import { EMAIL_TEMPLATE_CURSOR_RESET } from '../../shared/account';
import type { LogType } from '../../shared/constants';
import { TernError } from '../../shared/errors';
import { MAX_TEMPLATE_CHARS, templateIdSchema, templateInputSchema, type TemplateDraft } from '../../shared/templates';
import type { MailTable } from '../db/mail-schema';
import { withWrite, type LocalStore } from '../db/store';
import { TEMPLATE_TABLES, writeTemplateChanges } from '../mail-store/template-rows';
import type { TemplatesGateway } from './templates-gateway';
import { OneRunPerKey } from '../net/one-run-per-key';

export interface EngineTemplatesDeps {
  readonly accounts: {
    readonly get: (accountId: string) => Promise<Account | undefined>;
    readonly update: (accountId: string, change: (account: Account) => Account) => Promise<Account | undefined>;
  };
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly gateway: (accountId: string) => Promise<TemplatesGateway>;
  /** The cached templates changed: the tabs' settings follow. */
  readonly changed: () => void;
  readonly now?: () => number;
  readonly log?: (type: LogType, message: string) => void;
}

/** The spec's reset value reads as "from the beginning" to the gateway. */
const gatewayCursor = (cursor: string) => (cursor === EMAIL_TEMPLATE_CURSOR_RESET ? '' : cursor);

export class EngineTemplates {
  private readonly pulls = new OneRunPerKey();

  constructor(private readonly deps: EngineTemplatesDeps) {}

  /**
   * Creates (a new id) or replaces a template on the gateway, then pulls it here. A bad field
   * (InvalidParameter, naming it) or an oversized body (TemplateTooLarge) is refused here,
   * as the gateway would, without a round trip; the person's text stays in their form.
   */
  async save(params: { readonly accountId: string; readonly templateId?: string; readonly template: TemplateDraft }): Promise<{ readonly templateId: string }> {
    await this.account(params.accountId);
    const templateId = params.templateId ?? crypto.randomUUID();
    const id = templateIdSchema.safeParse(templateId);
    const parsed = templateInputSchema.safeParse(params.template);
    if (!id.success || !parsed.success) {
      const issues = [...(id.success ? [] : [{ path: 'id', message: id.error.issues[0]?.message ?? '' }]), ...(parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })))];
      throw new TernError('InvalidParameter', { detail: issues });
    }
    if (parsed.data.bodyHtml.length > MAX_TEMPLATE_CHARS) {
      throw new TernError('TemplateTooLarge', { detail: { limit: MAX_TEMPLATE_CHARS, length: parsed.data.bodyHtml.length, template: id.data } });
    }
    await (await this.deps.gateway(params.accountId)).put(id.data, parsed.data);
    await this.pull(params.accountId);
    return { templateId: id.data };
  }

  async remove(params: { readonly accountId: string; readonly templateId: string }): Promise<void> {
    await this.account(params.accountId);
    await (await this.deps.gateway(params.accountId)).delete(params.templateId);
    await this.pull(params.accountId);
  }

  /**
   * Reads the gateway's changes after the account's cursor, page by page: rows first, then
   * the cursor, so a page cut short is read again (a put or delete twice is the same).
   * One pull at a time per account; a call during one runs another after it.
   */
  pull(accountId: string): Promise<void> {
    return this.pulls.run(accountId, () =>
      this.pullOnce(accountId).catch((error: unknown) => this.deps.log?.('Info', `pulling the templates of ${accountId}: ${error instanceof Error ? error.message : String(error)}`)),
    );
  }

  private async pullOnce(accountId: string): Promise<void> {
    const gateway = await this.deps.gateway(accountId);
    const store = await this.deps.open(accountId);
    for (;;) {
      const cursor = (await this.account(accountId)).emailTemplateCursor;
      const page = await gateway.changes(gatewayCursor(cursor));
      const changed = await withWrite(store, TEMPLATE_TABLES, (tx) => writeTemplateChanges(tx, page));
      const moved = await this.deps.accounts.update(accountId, (account) =>
        // Another pull or a cache clear moved the cursor meanwhile: leave it (the rows written are harmless).
        account.emailTemplateCursor === cursor ? { ...account, emailTemplateCursor: page.cursor || cursor, emailTemplateUpdateTimestamp: (this.deps.now ?? Date.now)() } : account,
      );
      if (changed) this.deps.changed();
      if (!page.hasMore || moved?.emailTemplateCursor === cursor) break;
    }
  }

  private async account(accountId: string): Promise<Account> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound', { detail: { accountId } });
    return account;
  }
}
