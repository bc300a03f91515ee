/** The gateway's preference, plan and label routes (shared/api/preferences.ts, labels.ts), for one account. */
import { labelsDocSchema, type LabelsDoc } from '../../shared/api/labels';
import { planResponseSchema, preferencesDocSchema, type PlanResponse, type PreferencesDoc } from '../../shared/api/preferences';
import type { PreferencePatch } from '../../shared/preferences';
import type { GatewayClient } from '../api/gateway-client';

export interface SettingsGateway {
  preferences(): Promise<PreferencesDoc>;
  /** PATCH: a set of choices, so repeating it is harmless (the HTTP client may retry). */
  patchPreferences(values: PreferencePatch): Promise<PreferencesDoc>;
  plan(): Promise<PlanResponse>;
  labels(): Promise<LabelsDoc>;
}

export function createSettingsGateway(client: GatewayClient): SettingsGateway {
  return {
    preferences: () => client.json({ type: 'preferences', path: '/preferences' }, preferencesDocSchema),
    patchPreferences: (values) => client.json({ type: 'preferences', method: 'PATCH', path: '/preferences', json: { values } }, preferencesDocSchema),
    plan: () => client.json({ type: 'plan', path: '/plan' }, planResponseSchema),
    labels: () => client.json({ type: 'labels', path: '/labels' }, labelsDocSchema),
  };
}
