/**
 * Identities and templates (Settings → Identity, Email alias, Signatures, Templates; the
 * composer's "Save as template"): each one engine call, which
 * changes the gateway first; a refusal becomes the catalogue's TernError for the form.
 */
import { TernError } from '../../../shared/errors';
import type { IdentityDraft } from '../../../shared/identities';
import type { TemplateDraft } from '../../../shared/templates';
import type { UiEngine } from '../engine-port';

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
  const settings = () => {
    if (!engine.settings) throw new TernError('ServiceNotFound');
    return engine.settings;
  };
  const call = async <T,>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw TernError.from(error);
    }
  };
  return {
    saveIdentity: async (params) => void (await call(() => settings().saveIdentity(params))),
    deleteIdentity: async (params) => void (await call(() => settings().deleteIdentity(params))),
    saveTemplate: (params) => call(() => settings().saveTemplate(params)),
    deleteTemplate: (params) => call(() => settings().deleteTemplate(params)),
  };
}
