/**
 * The engine's SettingsService (shared/worker-api.ts): each account's preferences, plan and identities,
 * cached in its database (settings-rows.ts), loaded from the gateway at sign-in and start,
 * refreshed by delta (sync/delta-applier.ts writes the upserts; `changed` is called after
 * the commit), pushed to every watching tab, and changed at once here, then on the gateway
 * (preference-sender.ts), so a change works offline and reaches the gateway later.
 */
import * as z from 'zod';
import { compareAccountIds } from '../../shared/account';
import type { Clock } from '../../shared/clock';
import type { LogType } from '../../shared/constants';
import { TernError } from '../../shared/errors';
import { identityIdSchema, identityInputSchema, MAX_SIGNATURE_CHARS, type IdentitiesDoc, type IdentityDraft } from '../../shared/identities';
import { PREFERENCE_FEATURES, preferencePatchSchema, type PreferenceKey } from '../../shared/preferences';
import type { AccountSettings, SettingsService } from '../../shared/worker-api';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../db/store';
import type { OnlineStatus } from '../net/online-status';
import { createPreferenceSender, type PreferenceSender } from './preference-sender';
import type { SettingsGateway } from './settings-gateway';
import {
  addPending,
  readCachedIdentities,
  readCachedLabels,
  readCachedPlan,
  readCachedPreferences,
  SETTINGS_TABLES,
  toAccountSettings,
  writeLabels,
  writePlan,
  writeServerIdentities,
  writeServerPreferences,
} from '../mail-store/settings-rows';
import { readTemplates, TEMPLATE_TABLES } from '../mail-store/template-rows';

export interface EngineSettingsDeps {
  /** The stored accounts' ids (any order). */
  readonly accountIds: () => Promise<readonly string[]>;
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly gateway: (accountId: string) => Promise<SettingsGateway>;
  readonly online: Pick<OnlineStatus, 'isOnline' | 'subscribe'>;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly log?: (type: LogType, message: string) => void;
}

const updateSchema = z.object({ accountId: z.string().min(1), values: preferencePatchSchema });

export class EngineSettings implements Omit<SettingsService, 'saveTemplate' | 'deleteTemplate'> {
  private readonly watchers = new Map<string, (settings: readonly AccountSettings[]) => unknown>();
  private readonly sender: PreferenceSender;

  constructor(private readonly deps: EngineSettingsDeps) {
    this.sender = createPreferenceSender({
      open: deps.open,
      gateway: deps.gateway,
      online: deps.online,
      ...(deps.clock ? { clock: deps.clock } : {}),
      ...(deps.random ? { random: deps.random } : {}),
      changed: () => this.changed(),
      refused: (accountId, error) => deps.log?.('Error', `preferences of ${accountId} refused by the gateway (${error.name}); taken back on this device`),
    });
  }

  async list(): Promise<readonly AccountSettings[]> {
    const ids = [...(await this.deps.accountIds())].sort(compareAccountIds);
    return Promise.all(ids.map((accountId) => this.read(accountId)));
  }

  async update(params: { readonly accountId: string; readonly values: Parameters<SettingsService['update']>[0]['values'] }): Promise<AccountSettings> {
    const parsed = updateSchema.safeParse(params);
    if (!parsed.success) throw new TernError('InvalidRequestData', { detail: { issues: parsed.error.issues.map((issue) => issue.path.join('.')) } });
    const { accountId, values } = parsed.data;
    await this.require(accountId);
    const store = await this.deps.open(accountId);
    await withWrite(store, SETTINGS_TABLES, async (tx) => {
      // Refused here, as the gateway would: the plan this device knows lacks the key's feature.
      const { features } = await readCachedPlan(tx);
      for (const key of Object.keys(values) as PreferenceKey[]) {
        const feature = PREFERENCE_FEATURES[key];
        if (feature && !features.includes(feature)) throw new TernError('FeatureNotInPlan', { detail: { feature, key } });
      }
      await addPending(tx, values);
    });
    this.changed();
    const outcome = await this.sender.send(accountId);
    if (outcome.kind === 'refused') throw outcome.error;
    return this.read(accountId);
  }

  /**
   * Identities change on the gateway first (an alias is the gateway's and the plan's to
   * allow), then in the cache and every tab; a bad field or an oversized signature is
   * refused here, as the gateway would, without a round trip.
   */
  async saveIdentity(params: { readonly accountId: string; readonly identityId: string; readonly identity: IdentityDraft }): Promise<AccountSettings> {
    await this.require(params.accountId);
    const id = identityIdSchema.safeParse(params.identityId);
    const parsed = identityInputSchema.safeParse(params.identity);
    if (!id.success || !parsed.success) {
      const issues = [...(id.success ? [] : [{ path: 'id', message: id.error.issues[0]?.message ?? '' }]), ...(parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })))];
      throw new TernError('InvalidParameter', { detail: issues });
    }
    if (parsed.data.signatureHtml.length > MAX_SIGNATURE_CHARS) {
      throw new TernError('SignatureTooLarge', { detail: { limit: MAX_SIGNATURE_CHARS, length: parsed.data.signatureHtml.length, identity: id.data } });
    }
    const gateway = await this.deps.gateway(params.accountId);
    return this.keepIdentities(params.accountId, await gateway.putIdentity(id.data, parsed.data));
  }

  async deleteIdentity(params: { readonly accountId: string; readonly identityId: string }): Promise<AccountSettings> {
    await this.require(params.accountId);
    const gateway = await this.deps.gateway(params.accountId);
    return this.keepIdentities(params.accountId, await gateway.deleteIdentity(params.identityId));
  }

  private async keepIdentities(accountId: string, doc: IdentitiesDoc): Promise<AccountSettings> {
    await withWrite(await this.deps.open(accountId), SETTINGS_TABLES, (tx) => writeServerIdentities(tx, doc));
    this.changed();
    return this.read(accountId);
  }

  async watch(onChange: (settings: readonly AccountSettings[]) => void): Promise<{ readonly subscriptionId: string }> {
    const subscriptionId = crypto.randomUUID();
    this.watchers.set(subscriptionId, onChange);
    void this.list()
      .then((settings) => this.watchers.get(subscriptionId) && onChange(settings))
      .catch(() => this.watchers.delete(subscriptionId));
    return { subscriptionId };
  }

  async unwatch({ subscriptionId }: { readonly subscriptionId: string }): Promise<void> {
    this.watchers.delete(subscriptionId);
  }

  /**
   * The gateway's current preferences and plan for an account (sign-in, engine start), then
   * what was changed here while it was away. A failure keeps the cache; delta brings the rest.
   */
  async load(accountId: string): Promise<void> {
    try {
      const gateway = await this.deps.gateway(accountId);
      // Identities and labels on their own: a gateway older than them still gives preferences and plan.
      const [doc, plan, identities, labels] = await Promise.all([
        gateway.preferences(),
        gateway.plan(),
        gateway.identities().catch((error: unknown) => {
          this.deps.log?.('Info', `loading the identities of ${accountId}: ${error instanceof Error ? error.message : String(error)}`);
          return null;
        }),
        gateway.labels().catch(() => null),
      ]);
      await withWrite(await this.deps.open(accountId), SETTINGS_TABLES, async (tx) => {
        await writeServerPreferences(tx, doc);
        await writePlan(tx, plan);
        if (identities) await writeServerIdentities(tx, identities);
        if (labels) await writeLabels(tx, labels);
      });
      this.changed();
    } catch (error) {
      this.deps.log?.('Info', `loading the preferences of ${accountId}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await this.sender.send(accountId).catch(() => undefined);
  }

  /** Something changed the cached settings (a delta page, an account added or removed): every watching tab hears. */
  changed(): void {
    if (this.watchers.size === 0) return;
    void this.list()
      .then((settings) => {
        for (const [id, watcher] of this.watchers) {
          // A tab that went away rejects (or never answers); forget it on rejection.
          void Promise.resolve()
            .then(() => watcher(settings))
            .catch(() => this.watchers.delete(id));
        }
      })
      .catch((error: unknown) => this.deps.log?.('Error', `reading settings: ${String(error)}`));
  }

  stop(): void {
    this.sender.stop();
  }

  private async read(accountId: string): Promise<AccountSettings> {
    return withRead(await this.deps.open(accountId), [...SETTINGS_TABLES, ...TEMPLATE_TABLES], async (tx) =>
      toAccountSettings(accountId, await readCachedPreferences(tx), await readCachedPlan(tx), await readCachedIdentities(tx), await readCachedLabels(tx), await readTemplates(tx)),
    );
  }

  private async require(accountId: string): Promise<void> {
    if (!(await this.deps.accountIds()).includes(accountId)) throw new TernError('AccountNotFound', { detail: { accountId } });
  }
}

