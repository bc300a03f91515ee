/** The gateway's rules routes (shared/api/rules.ts), for one account. */
import { rulesApplyResponseSchema, rulesDocSchema, type RulesDoc } from '../../shared/api/rules';
import type { MailFilter, MailRules } from '../../shared/mail-rules';
import type { GatewayClient } from '../api/gateway-client';

export interface RulesGateway {
  rules(): Promise<RulesDoc>;
  /** PUT with the base revision: a repeat after a lost answer is RulesChanged, never a double change. */
  saveRules(rules: MailRules, baseRevision: number): Promise<RulesDoc>;
  /** POST: runs the filter over the Inbox once (not retried blindly: the client's retry policy decides). */
  applyFilter(filter: MailFilter): Promise<{ matched: number }>;
}

export function createRulesGateway(client: GatewayClient): RulesGateway {
  return {
    rules: () => client.json({ type: 'rules', path: '/rules' }, rulesDocSchema),
    applyFilter: (filter) => client.json({ type: 'rules', method: 'POST', path: '/rules/apply', json: { filter } }, rulesApplyResponseSchema),
    saveRules: (rules, baseRevision) => client.json({ type: 'rules', method: 'PUT', path: '/rules', json: { rules, baseRevision } }, rulesDocSchema),
  };
}
