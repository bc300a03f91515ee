/** The gateway's auto-clean routes (src-server/http/routes/auto-clean-routes.ts), for one account. */
import { autoCleanDocSchema, autoCleanPreviewSchema, autoCleanRunSchema, type AutoCleanDoc, type AutoCleanInput, type AutoCleanPreview, type AutoCleanRun } from '../../shared/auto-clean';
import type { GatewayClient } from '../api/gateway-client';

export interface AutoCleanGateway {
  doc(): Promise<AutoCleanDoc>;
  preview(input: AutoCleanInput): Promise<AutoCleanPreview>;
  create(input: AutoCleanInput): Promise<AutoCleanDoc>;
  update(ruleId: string, input: AutoCleanInput): Promise<AutoCleanDoc>;
  remove(ruleId: string): Promise<AutoCleanDoc>;
  runNow(ruleId: string): Promise<AutoCleanRun>;
  undo(runId: string): Promise<AutoCleanRun>;
}

/** Moves are never repeated blindly (a lost answer to Run now or undo is not a reason to move mail twice). */
export function createAutoCleanGateway(client: GatewayClient): AutoCleanGateway {
  const path = (...parts: string[]) => ['/auto-clean', ...parts.map(encodeURIComponent)].join('/');
  return {
    doc: () => client.json({ type: 'autoClean', path: path() }, autoCleanDocSchema),
    preview: (input) => client.json({ type: 'autoClean', method: 'POST', path: path('preview'), json: input }, autoCleanPreviewSchema),
    create: (input) => client.json({ type: 'autoClean', method: 'POST', path: path('rules'), json: input, retry: false }, autoCleanDocSchema),
    update: (ruleId, input) => client.json({ type: 'autoClean', method: 'PUT', path: path('rules', ruleId), json: input }, autoCleanDocSchema),
    remove: (ruleId) => client.json({ type: 'autoClean', method: 'DELETE', path: path('rules', ruleId) }, autoCleanDocSchema),
    runNow: (ruleId) => client.json({ type: 'autoClean', method: 'POST', path: `${path('rules', ruleId)}/run`, retry: false }, autoCleanRunSchema),
    undo: (runId) => client.json({ type: 'autoClean', method: 'POST', path: `${path('runs', runId)}/undo`, retry: false }, autoCleanRunSchema),
  };
}
