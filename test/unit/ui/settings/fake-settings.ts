/**
 * The engine's SettingsService in memory, for the UI tests: every account's settings, a
 * plan per account, `update` refusing FeatureNotInPlan as the engine does, and `fromElsewhere`
 * standing for a change that arrives through delta (another browser of the account).
 */
import { TernError } from '../../../../shared/errors';
import { identityInputSchema, type Identity, type IdentityDraft } from '../../../../shared/identities';
import { FEATURES, type Plan } from '../../../../shared/plans';
import { templateInputSchema, type Template, type TemplateDraft } from '../../../../shared/templates';
import { DEFAULT_PREFERENCES, PREFERENCE_FEATURES, type PreferenceKey, type PreferencePatch } from '../../../../shared/preferences';
import type { AccountSettings, SettingsService } from '../../../../shared/worker-api';

export class FakeSettings implements SettingsService {
  private readonly settings = new Map<string, AccountSettings>();
  private readonly watchers = new Map<string, (settings: readonly AccountSettings[]) => void>();
  readonly updates: { accountId: string; values: PreferencePatch }[] = [];

  readonly identitySaves: { accountId: string; identityId: string; identity: IdentityDraft }[] = [];

  constructor(accounts: Readonly<Record<string, { plan?: Plan; values?: PreferencePatch; revision?: number; identities?: Identity[] }>>) {
    for (const [accountId, { plan = 'paid', values = {}, revision = 0, identities = [] }] of Object.entries(accounts)) {
      this.settings.set(accountId, { accountId, preferences: { ...DEFAULT_PREFERENCES, ...values }, revision, unsynced: false, plan, features: plan === 'paid' ? [...FEATURES] : [], identities, labels: [], serverKeepsLabels: null, templates: [] });
    }
  }

  /** Keeps the identity as the gateway would (no plan or address checks: the gateway's own tests hold those). */
  async saveIdentity({ accountId, identityId, identity }: { accountId: string; identityId: string; identity: IdentityDraft }) {
    const current = this.settings.get(accountId);
    if (!current) throw new TernError('AccountNotFound');
    this.identitySaves.push({ accountId, identityId, identity });
    const input = identityInputSchema.parse(identity);
    const saved: Identity = { id: identityId, ...input, updatedAt: 1 };
    const others = current.identities.filter((other) => other.id !== identityId).map((other) => (input.isDefault ? { ...other, isDefault: false } : other));
    return this.replace(accountId, { ...current, identities: [...others, saved] });
  }

  /** Keeps the template as the gateway would (its limits are the gateway's own tests'). */
  async saveTemplate({ accountId, templateId, template }: { accountId: string; templateId?: string; template: TemplateDraft }) {
    const current = this.settings.get(accountId);
    if (!current) throw new TernError('AccountNotFound');
    const id = templateId ?? `t${current.templates.length + 1}`;
    const saved: Template = { id, ...templateInputSchema.parse(template), createdAt: 1, updatedAt: 1 };
    this.replace(accountId, { ...current, templates: [...current.templates.filter((other) => other.id !== id), saved] });
    return { templateId: id };
  }

  async deleteTemplate({ accountId, templateId }: { accountId: string; templateId: string }) {
    const current = this.settings.get(accountId);
    if (!current) throw new TernError('AccountNotFound');
    this.replace(accountId, { ...current, templates: current.templates.filter((other) => other.id !== templateId) });
  }

  async deleteIdentity({ accountId, identityId }: { accountId: string; identityId: string }) {
    const current = this.settings.get(accountId);
    if (!current) throw new TernError('AccountNotFound');
    return this.replace(accountId, { ...current, identities: current.identities.filter((other) => other.id !== identityId) });
  }

  private replace(accountId: string, next: AccountSettings): AccountSettings {
    this.settings.set(accountId, next);
    const list = [...this.settings.values()];
    for (const watcher of this.watchers.values()) watcher(list);
    return next;
  }

  async list() {
    return [...this.settings.values()];
  }

  async update({ accountId, values }: { accountId: string; values: PreferencePatch }) {
    const current = this.settings.get(accountId);
    if (!current) throw new TernError('AccountNotFound');
    for (const key of Object.keys(values) as PreferenceKey[]) {
      const feature = PREFERENCE_FEATURES[key];
      if (feature && !current.features.includes(feature)) throw new TernError('FeatureNotInPlan', { detail: { feature } });
    }
    this.updates.push({ accountId, values });
    return this.fromElsewhere(accountId, values);
  }

  /** A change made on another device, arriving as the engine's push. */
  fromElsewhere(accountId: string, values: PreferencePatch): AccountSettings {
    const current = this.settings.get(accountId)!;
    const next = { ...current, preferences: { ...current.preferences, ...values }, revision: current.revision + 1 };
    this.settings.set(accountId, next);
    const list = [...this.settings.values()];
    for (const watcher of this.watchers.values()) watcher(list);
    return next;
  }

  async watch(onChange: (settings: readonly AccountSettings[]) => void) {
    const subscriptionId = String(this.watchers.size + 1);
    this.watchers.set(subscriptionId, onChange);
    queueMicrotask(() => onChange([...this.settings.values()]));
    return { subscriptionId };
  }

  async unwatch({ subscriptionId }: { subscriptionId: string }) {
    this.watchers.delete(subscriptionId);
  }
}
