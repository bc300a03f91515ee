/** The gateway's rules routes (shared/api/rules.ts), for one account. */
import { rulesActivitySchema, rulesApplyResponseSchema, rulesDocSchema, type RulesDoc } from '../../shared/api/rules';
import { forwardingCheckResultSchema, type ForwardingCheckResult, type MailFilter, type MailRules, type RuleRun, type RulesActivity } from '../../shared/mail-rules';
import type { GatewayClient } from '../api/gateway-client';

export interface RulesGateway {
  rules(): Promise<RulesDoc>;
  /** PUT with the base revision: a repeat after a lost answer is RulesChanged, never a double change. */
  saveRules(rules: MailRules, baseRevision: number): Promise<RulesDoc>;
  /** POST: starts a run of the filter over the Inbox (not retried blindly: the client's retry policy decides). */
  applyFilter(filter: MailFilter): Promise<RuleRun>;
  /** The rules' revision and recent runs, as a page opened mid-run first shows them. */
  activity(): Promise<RulesActivity>;
  /** POST: sends a test message to `address` and waits (up to ~45 s) for it in the Inbox; never repeated (each try sends mail). */
  checkForwarding(address: string): Promise<ForwardingCheckResult>;
}

/** The gateway waits up to 45 s for the test message; the answer then needs a moment more. */
const FORWARDING_CHECK_TIMEOUT_MS = 60_000;

export function createRulesGateway(client: GatewayClient): RulesGateway {
  return {
    rules: () => client.json({ type: 'rules', path: '/rules' }, rulesDocSchema),
    applyFilter: async (filter) => (await client.json({ type: 'rules', method: 'POST', path: '/rules/apply', json: { filter } }, rulesApplyResponseSchema)).run,
    activity: () => client.json({ type: 'rules', path: '/rules/activity' }, rulesActivitySchema),
    checkForwarding: (address) =>
      client.json({ type: 'rules', method: 'POST', path: '/rules/forwarding-check', json: { address }, retry: false, timeoutMs: FORWARDING_CHECK_TIMEOUT_MS }, forwardingCheckResultSchema),
    saveRules: (rules, baseRevision) => client.json({ type: 'rules', method: 'PUT', path: '/rules', json: { rules, baseRevision } }, rulesDocSchema),
  };
}
