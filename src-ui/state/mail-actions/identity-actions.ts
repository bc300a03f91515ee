/**
 * Identities (Settings → Identity, Email alias, Signatures): each one engine call, which
 * changes the gateway first; a refusal becomes the catalogue's TernError for the form.
 */
import { TernError } from '../../../shared/errors';
import type { IdentityDraft } from '../../../shared/identities';
import type { UiEngine } from '../engine-port';

export interface IdentityActions {
  /** Creates or replaces an identity; throws InvalidParameter (detail names the field), SignatureTooLarge, FeatureNotInPlan. */
  saveIdentity(params: { accountId: string; identityId: string; identity: IdentityDraft }): Promise<void>;
  /** Removes an alias, or puts the own identity back to its defaults. */
  deleteIdentity(params: { accountId: string; identityId: string }): Promise<void>;
}

export function createIdentityActions({ engine }: { engine: UiEngine }): IdentityActions {
  const settings = () => {
    if (!engine.settings) throw new TernError('ServiceNotFound');
    return engine.settings;
  };
  const call = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      throw TernError.from(error);
    }
  };
  return {
    saveIdentity: (params) => call(() => settings().saveIdentity(params)),
    deleteIdentity: (params) => call(() => settings().deleteIdentity(params)),
  };
}
