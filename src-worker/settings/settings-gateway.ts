/** The gateway's preference, plan, identity and label routes (shared/api/preferences.ts, shared/identities.ts, shared/api/labels.ts), for one account. */
import { labelsDocSchema, type LabelsDoc } from '../../shared/api/labels';
import { planResponseSchema, preferencesDocSchema, type PlanResponse, type PreferencesDoc } from '../../shared/api/preferences';
import { identitiesDocSchema, type IdentitiesDoc, type IdentityInput } from '../../shared/identities';
import type { PreferencePatch } from '../../shared/preferences';
import type { GatewayClient } from '../api/gateway-client';

export interface SettingsGateway {
  preferences(): Promise<PreferencesDoc>;
  /** PATCH: a set of choices, so repeating it is harmless (the HTTP client may retry). */
  patchPreferences(values: PreferencePatch): Promise<PreferencesDoc>;
  plan(): Promise<PlanResponse>;
  identities(): Promise<IdentitiesDoc>;
  /** PUT: the whole identity under the device's id, so repeating it is harmless. */
  putIdentity(id: string, identity: IdentityInput): Promise<IdentitiesDoc>;
  deleteIdentity(id: string): Promise<IdentitiesDoc>;
  labels(): Promise<LabelsDoc>;
}

export function createSettingsGateway(client: GatewayClient): SettingsGateway {
  return {
    preferences: () => client.json({ type: 'preferences', path: '/preferences' }, preferencesDocSchema),
    patchPreferences: (values) => client.json({ type: 'preferences', method: 'PATCH', path: '/preferences', json: { values } }, preferencesDocSchema),
    plan: () => client.json({ type: 'plan', path: '/plan' }, planResponseSchema),
    identities: () => client.json({ type: 'identities', path: '/identities' }, identitiesDocSchema),
    putIdentity: (id, identity) => client.json({ type: 'identities', method: 'PUT', path: `/identities/${encodeURIComponent(id)}`, json: identity }, identitiesDocSchema),
    // Not retried: a repeat after a lost answer would say InvalidOperation for what was done.
    deleteIdentity: (id) => client.json({ type: 'identities', method: 'DELETE', path: `/identities/${encodeURIComponent(id)}`, retry: false }, identitiesDocSchema),
    labels: () => client.json({ type: 'labels', path: '/labels' }, labelsDocSchema),
  };
}
