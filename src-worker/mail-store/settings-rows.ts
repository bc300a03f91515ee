/**
 * An account's preferences, plan and labels as this device keeps them, in the account's own mail
 * database: the gateway's last document and the changes made here that it has not
 * confirmed (JSONBlob `preferences`), and the plan with its features (FeatureSettings
 * `plan`, the spec's table for what start-up reads without a round trip; the label table
 * beside it, FeatureSettings `labels`). One database
 * per account, so a delta page writes them in the same transaction as its cursor.
 */
import { labelsDocSchema, type LabelsDoc } from '../../shared/api/labels';
import { identitiesDocSchema, type IdentitiesDoc } from '../../shared/identities';
import { DEFAULT_PLAN, FEATURES, planResponseSchema, type PlanResponse } from '../../shared/plans';
import { readPreferenceValues, type PreferencePatch, type PreferencesDoc, type PreferenceValues } from '../../shared/preferences';
import type { Template } from '../../shared/templates';
import type { AccountSettings } from '../../shared/worker-api';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';

const PREFERENCES_KEY = 'preferences';
const PLAN_KEY = 'plan';
const IDENTITIES_KEY = 'identities';
const LABELS_KEY = 'labels';

/** The tables a settings write touches. */
export const SETTINGS_TABLES = ['JSONBlob', 'FeatureSettings'] as const satisfies readonly MailTable[];

export interface CachedPreferences {
  /** The gateway's last word (null before the first answer: defaults at revision 0). */
  readonly doc: PreferencesDoc | null;
  /** Changed here, not confirmed by the gateway yet: laid over `doc`, sent by the preference sender. */
  readonly pending: PreferencePatch | null;
}

export async function readCachedPreferences(tx: ReadTransaction<MailTable>): Promise<CachedPreferences> {
  const row = (await tx.get('JSONBlob', PREFERENCES_KEY)) as { doc?: PreferencesDoc | null; pending?: PreferencePatch | null } | undefined;
  return { doc: row?.doc ?? null, pending: row?.pending && Object.keys(row.pending).length > 0 ? row.pending : null };
}

async function writeCached(tx: WriteTransaction<MailTable>, cached: CachedPreferences): Promise<void> {
  await tx.put('JSONBlob', { id: PREFERENCES_KEY, doc: cached.doc, pending: cached.pending });
}

/**
 * The gateway's document (a GET, a PATCH's answer or a delta upsert). An older revision
 * than the one kept is ignored (a slow GET answering after a delta); what is pending here
 * stays laid over it until the gateway confirms or refuses it.
 */
export async function writeServerPreferences(tx: WriteTransaction<MailTable>, doc: PreferencesDoc): Promise<boolean> {
  const cached = await readCachedPreferences(tx);
  if (cached.doc && cached.doc.revision > doc.revision) return false;
  await writeCached(tx, { ...cached, doc });
  return true;
}

/** A change made on this device: merged into what is pending (the newest choice per key wins). */
export async function addPending(tx: WriteTransaction<MailTable>, patch: PreferencePatch): Promise<void> {
  const cached = await readCachedPreferences(tx);
  await writeCached(tx, { ...cached, pending: { ...cached.pending, ...patch } });
}

/**
 * Takes `sent` off what is pending: the keys whose pending value is still the one sent
 * (confirmed, or refused and so reverted). A key changed again meanwhile stays pending.
 */
export async function settlePending(tx: WriteTransaction<MailTable>, sent: PreferencePatch): Promise<void> {
  const cached = await readCachedPreferences(tx);
  if (!cached.pending) return;
  const rest: Record<string, unknown> = { ...cached.pending };
  // By value: a list or an object (spellWords, priorityModel) comes back from the store as a copy, never the same object.
  for (const [key, value] of Object.entries(sent)) if (JSON.stringify(rest[key]) === JSON.stringify(value)) delete rest[key];
  await writeCached(tx, { ...cached, pending: Object.keys(rest).length > 0 ? (rest as PreferencePatch) : null });
}

/** Every feature: the default plan's, until the gateway says otherwise (the gateway still refuses what the plan lacks). */
const DEFAULT_PLAN_RESPONSE: PlanResponse = { plan: DEFAULT_PLAN, features: [...FEATURES] };

export async function readCachedPlan(tx: ReadTransaction<MailTable>): Promise<PlanResponse> {
  const row = await tx.get('FeatureSettings', PLAN_KEY);
  const parsed = planResponseSchema.safeParse(row);
  return parsed.success ? parsed.data : DEFAULT_PLAN_RESPONSE;
}

export async function writePlan(tx: WriteTransaction<MailTable>, plan: PlanResponse): Promise<void> {
  await tx.put('FeatureSettings', { id: PLAN_KEY, plan: plan.plan, features: [...plan.features] });
}

/** The gateway's last list of identities (null before the first answer). */
export async function readCachedIdentities(tx: ReadTransaction<MailTable>): Promise<IdentitiesDoc | null> {
  const parsed = identitiesDocSchema.safeParse((await tx.get('JSONBlob', IDENTITIES_KEY)) as { doc?: unknown } | undefined);
  return parsed.success ? parsed.data : null;
}

/** The gateway's list (a GET, a change's answer or a delta upsert); an older revision than the one kept is ignored. */
export async function writeServerIdentities(tx: WriteTransaction<MailTable>, doc: IdentitiesDoc): Promise<boolean> {
  const cached = await readCachedIdentities(tx);
  if (cached && cached.revision > doc.revision) return false;
  await tx.put('JSONBlob', { id: IDENTITIES_KEY, revision: doc.revision, identities: doc.identities });
  return true;
}

const NO_LABELS: LabelsDoc = { labels: [], serverKeepsLabels: null };

/** The label table (the spec's EmailLabels) as the gateway last sent it: none before its first word. */
export async function readCachedLabels(tx: ReadTransaction<MailTable>): Promise<LabelsDoc> {
  const parsed = labelsDocSchema.safeParse(await tx.get('FeatureSettings', LABELS_KEY));
  return parsed.success ? parsed.data : NO_LABELS;
}

export async function writeLabels(tx: WriteTransaction<MailTable>, doc: LabelsDoc): Promise<void> {
  await tx.put('FeatureSettings', { id: LABELS_KEY, labels: doc.labels, serverKeepsLabels: doc.serverKeepsLabels });
}

/** What the tabs see: the values made whole, pending changes laid over the gateway's. */
export function toAccountSettings(accountId: string, cached: CachedPreferences, plan: PlanResponse, identities: IdentitiesDoc | null = null, labels: LabelsDoc = NO_LABELS, templates: readonly Template[] = []): AccountSettings {
  const preferences: PreferenceValues = readPreferenceValues({ ...cached.doc?.values, ...cached.pending });
  return {
    accountId,
    preferences,
    revision: cached.doc?.revision ?? 0,
    unsynced: cached.pending !== null,
    plan: plan.plan,
    features: plan.features,
    identities: identities?.identities ?? [],
    labels: labels.labels,
    serverKeepsLabels: labels.serverKeepsLabels,
    templates,
  };
}
