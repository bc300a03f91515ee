/**
 * The gateway's preference and plan routes for the settings tests, in memory, with the real
 * routes' rules: PATCH merges, bumps the revision and answers the whole document; a key whose
 * feature the plan lacks is FeatureNotInPlan 402; `offline` makes every call fail as a
 * network failure does in the HTTP client.
 */
import type { LabelsDoc } from '../../../../shared/api/labels';
import { TernError } from '../../../../shared/errors';
import { OWN_IDENTITY_ID, ownIdentity, type IdentitiesDoc, type IdentityInput } from '../../../../shared/identities';
import { FEATURES, type Plan, type PlanResponse } from '../../../../shared/plans';
import { DEFAULT_PREFERENCES, PREFERENCE_FEATURES, type PreferenceKey, type PreferencePatch, type PreferencesDoc } from '../../../../shared/preferences';
import type { SettingsGateway } from '../../../../src-worker/settings/settings-gateway';

export class FakeSettingsGateway implements SettingsGateway {
  doc: PreferencesDoc = { revision: 0, values: { ...DEFAULT_PREFERENCES }, updatedAt: 0 };
  planName: Plan = 'paid';
  offline = false;
  readonly patches: PreferencePatch[] = [];
  identitiesDoc: IdentitiesDoc = { revision: 0, identities: [ownIdentity('me@tern.test')] };

  private get features() {
    return this.planName === 'paid' ? [...FEATURES] : [];
  }

  private reach() {
    if (this.offline) throw new TernError('OperationFailed', { detail: { network: true } });
  }

  async preferences(): Promise<PreferencesDoc> {
    this.reach();
    return structuredClone(this.doc);
  }

  labelsDoc: LabelsDoc = { labels: [], serverKeepsLabels: true };

  async labels(): Promise<LabelsDoc> {
    this.reach();
    return structuredClone(this.labelsDoc);
  }

  async plan(): Promise<PlanResponse> {
    this.reach();
    return { plan: this.planName, features: this.features };
  }

  async identities(): Promise<IdentitiesDoc> {
    this.reach();
    return structuredClone(this.identitiesDoc);
  }

  async putIdentity(id: string, identity: IdentityInput): Promise<IdentitiesDoc> {
    this.reach();
    if (id !== OWN_IDENTITY_ID && !this.features.includes('emailAlias')) throw new TernError('FeatureNotInPlan', { detail: { feature: 'emailAlias' } });
    const others = this.identitiesDoc.identities.filter((other) => other.id !== id).map((other) => (identity.isDefault ? { ...other, isDefault: false } : other));
    this.identitiesDoc = { revision: this.identitiesDoc.revision + 1, identities: [...others, { id, ...identity, updatedAt: 1 }] };
    return structuredClone(this.identitiesDoc);
  }

  async deleteIdentity(id: string): Promise<IdentitiesDoc> {
    this.reach();
    this.identitiesDoc = { revision: this.identitiesDoc.revision + 1, identities: this.identitiesDoc.identities.filter((other) => other.id !== id) };
    return structuredClone(this.identitiesDoc);
  }

  async patchPreferences(values: PreferencePatch): Promise<PreferencesDoc> {
    this.reach();
    this.patches.push(values);
    for (const key of Object.keys(values) as PreferenceKey[]) {
      const feature = PREFERENCE_FEATURES[key];
      if (feature && !this.features.includes(feature)) throw new TernError('FeatureNotInPlan', { detail: { feature } });
    }
    this.doc = { revision: this.doc.revision + 1, values: { ...this.doc.values, ...values }, updatedAt: this.doc.updatedAt + 1 };
    return structuredClone(this.doc);
  }
}
