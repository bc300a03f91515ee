/**
 * Identities and templates (Settings → Identity, Email alias, Signatures, Templates; the
 * composer's "Save as template"): each one engine call, which
 * changes the gateway first; a refusal becomes the catalogue's TernError for the form.
 */
import type { IdentityDraft } from '../../../shared/identities';
import type { TemplateDraft } from '../../../shared/templates';
import type { UiEngine } from '../engine-port';
import { asTernError as call, engineService } from './engine-call';

export interface IdentityActions {
  /** Creates or replaces an identity; throws InvalidParameter (detail names the field), SignatureTooLarge, FeatureNotInPlan. */
  saveIdentity(params: { accountId: string; identityId: string; identity: IdentityDraft }): Promise<void>;
  /** Removes an alias, or puts the own identity back to its defaults. */
  deleteIdentity(params: { accountId: string; identityId: string }): Promise<void>;
  /** Creates (no id) or replaces a template; throws InvalidParameter, TemplateTooLarge, TemplateLimitReached, FeatureNotInPlan. */
  saveTemplate(params: { accountId: string; templateId?: string; template: TemplateDraft }): Promise<{ readonly templateId: string }>;
  deleteTemplate(params: { accountId: string; templateId: string }): Promise<void>;
}

export function createIdentityActions({ engine }: { engine: UiEngine }): IdentityActions {
  const settings = () => engineService(engine, 'settings');
  return {
    saveIdentity: async (params) => void (await call(() => settings().saveIdentity(params))),
    deleteIdentity: async (params) => void (await call(() => settings().deleteIdentity(params))),
    saveTemplate: (params) => call(() => settings().saveTemplate(params)),
    deleteTemplate: (params) => call(() => settings().deleteTemplate(params)),
  };
}
