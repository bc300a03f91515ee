/**
 * The engine's RulesService (shared/worker-api.ts): each account's rules, read and saved through
 * the gateway, which puts them on the mail server. No offline queue on purpose: a rule counts
 * once the server accepted its script, and a refusal must reach the person while they look.
 * The newest document per account is kept in memory for `listSender` (the toolbar's "Block
 * sender" changes the lists without the Settings page open). What changes on the gateway (a
 * save on another device, an "apply to existing mail" run's progress) comes with the sync's
 * delta pages (`changed`) and goes to every watching tab.
 */
import * as z from 'zod';
import { TernError } from '../../shared/errors';
import { mailFilterSchema, mailRulesSchema, ruleAddressSchema, senderEntrySchema, type ForwardingCheckResult, type RuleRun, type RulesActivity, type RulesDoc } from '../../shared/mail-rules';
import type { RulesService } from '../../shared/worker-api';
import type { RulesGateway } from './rules-gateway';

export interface EngineRulesDeps {
  readonly gateway: (accountId: string) => Promise<RulesGateway>;
}

const saveSchema = z.object({ accountId: z.string().min(1), rules: mailRulesSchema, baseRevision: z.number().int().nonnegative() });
const applySchema = z.object({ accountId: z.string().min(1), filter: mailFilterSchema });
const checkSchema = z.object({ accountId: z.string().min(1), address: ruleAddressSchema });
const listSchema = z.object({ accountId: z.string().min(1), sender: senderEntrySchema, list: z.enum(['blocked', 'allowed']).nullable() });

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TernError('InvalidParameter', { detail: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
  return parsed.data;
}

export class EngineRules implements RulesService {
  private readonly latest = new Map<string, RulesDoc>();
  private readonly watchers = new Map<string, { accountId: string; onChange: (activity: RulesActivity) => unknown }>();

  constructor(private readonly deps: EngineRulesDeps) {}

  async get({ accountId }: { readonly accountId: string }): Promise<RulesDoc> {
    const doc = await (await this.deps.gateway(accountId)).rules();
    this.latest.set(accountId, doc);
    return doc;
  }

  async save(params: Parameters<RulesService['save']>[0]): Promise<RulesDoc> {
    const { accountId, rules, baseRevision } = parse(saveSchema, params);
    const doc = await (await this.deps.gateway(accountId)).saveRules(rules, baseRevision);
    this.latest.set(accountId, doc);
    return doc;
  }

  async applyFilter(params: Parameters<RulesService['applyFilter']>[0]): Promise<RuleRun> {
    const { accountId, filter } = parse(applySchema, params);
    return (await this.deps.gateway(accountId)).applyFilter(filter);
  }

  async checkForwarding(params: Parameters<RulesService['checkForwarding']>[0]): Promise<ForwardingCheckResult> {
    const { accountId, address } = parse(checkSchema, params);
    return (await this.deps.gateway(accountId)).checkForwarding(address);
  }

  /** The first call comes with the gateway's activity now (a page opened or reloaded mid-run); later ones with the delta's. */
  async watch({ accountId }: { readonly accountId: string }, onChange: (activity: RulesActivity) => void): Promise<{ readonly subscriptionId: string }> {
    const subscriptionId = crypto.randomUUID();
    this.watchers.set(subscriptionId, { accountId, onChange });
    void (async () => (await this.deps.gateway(accountId)).activity())()
      .then((activity) => this.watchers.has(subscriptionId) && onChange(activity))
      // Offline or refused: the next delta page brings the activity.
      .catch(() => undefined);
    return { subscriptionId };
  }

  async unwatch({ subscriptionId }: { readonly subscriptionId: string }): Promise<void> {
    this.watchers.delete(subscriptionId);
  }

  /** A delta page brought the account's activity: every tab watching it hears (a tab that is gone is forgotten). */
  changed(accountId: string, activity: RulesActivity): void {
    if ((this.latest.get(accountId)?.revision ?? activity.revision) < activity.revision) this.latest.delete(accountId);
    for (const [id, watcher] of this.watchers) {
      if (watcher.accountId !== accountId) continue;
      void Promise.resolve()
        .then(() => watcher.onChange(activity))
        .catch(() => this.watchers.delete(id));
    }
  }

  async listSender(params: Parameters<RulesService['listSender']>[0]): Promise<RulesDoc> {
    const { accountId, sender, list } = parse(listSchema, params);
    // Always from the gateway's newest copy: another device may have changed the lists.
    const current = await this.get({ accountId });
    if (current.availability === 'unavailable') throw new TernError('SieveUnavailable');
    const without = (entries: readonly string[]) => entries.filter((entry) => entry !== sender);
    const rules = {
      ...current.rules,
      blocked: list === 'blocked' ? [...without(current.rules.blocked), sender] : without(current.rules.blocked),
      allowed: list === 'allowed' ? [...without(current.rules.allowed), sender] : without(current.rules.allowed),
    };
    return this.save({ accountId, rules, baseRevision: current.revision });
  }
}
