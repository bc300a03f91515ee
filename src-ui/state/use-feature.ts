/**
 * "May I?" for a gated feature (issue 21 point 3): `allowed` when the account's plan (as the
 * engine caches it) includes the feature, and `requestPaywall` to show the paywall instead
 * of a control the gateway would refuse. Until the engine has answered, a feature counts as
 * allowed: the default plan enables everything, and the gateway refuses what is not.
 */
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { primaryAccountId } from '../../shared/account';
import type { Feature } from '../../shared/plans';
import type { AccountSettings } from '../../shared/worker-api';
import { accountSettingsAtom, paywallAtom } from './settings-atoms';

export interface FeatureAnswer {
  readonly allowed: boolean;
  /** Shows the paywall for this feature. */
  readonly requestPaywall: () => void;
}

/** Whether an account's settings allow a feature (unknown settings: yes, see above). */
export function featureAllowed(settings: AccountSettings | undefined, feature: Feature): boolean {
  return settings ? settings.features.includes(feature) : true;
}

/** For one account, or the primary account when none is named. */
export function useFeature(feature: Feature, accountId?: string): FeatureAnswer {
  const all = useAtomValue(accountSettingsAtom);
  const showPaywall = useSetAtom(paywallAtom);
  const id = accountId ?? primaryAccountId(Object.keys(all ?? {}));
  const allowed = featureAllowed(id ? all?.[id] : undefined, feature);
  const requestPaywall = useCallback(() => showPaywall({ feature }), [showPaywall, feature]);
  return { allowed, requestPaywall };
}

/**
 * Whether the composer of an account checks spelling as you type: its `spellCheck`
 * preference, when its plan includes the spell checker (on until the engine answers).
 */
export function useSpellCheck(accountId: string): boolean {
  const settings = useAtomValue(accountSettingsAtom)?.[accountId];
  return settings ? settings.preferences.spellCheck && featureAllowed(settings, 'spellChecker') : true;
}
