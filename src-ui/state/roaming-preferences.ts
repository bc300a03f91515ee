/**
 * The app-wide preferences as the person changes them: shown at once in this tab (and kept
 * in the boot cache), then sent to the engine as the primary account's preferences, which
 * queues them for the gateway, so every other tab and browser of the account follows.
 * Without an account (the login screen) a choice stays in this browser only.
 */
import { primaryAccountId } from '../../shared/account';
import type { LanguageChoice, PreferencePatch } from '../../shared/preferences';
import { accountsAtom } from './atoms';
import { readBootLanguage, writeBootCache } from './boot-preferences';
import type { Store } from './engine-feeds/feed-context';
import type { Preferences } from './preferences';
import { languageChoiceAtom } from './settings-atoms';

export interface RoamingPreferences extends Preferences {
  setLanguage(choice: LanguageChoice): void;
}

export function roamingPreferences(params: {
  local: Preferences;
  store: Store;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  /** Changes an account's preferences through the engine. */
  update: (accountId: string, values: PreferencePatch) => Promise<unknown>;
}): RoamingPreferences {
  const { local, store, storage, update } = params;
  store.set(languageChoiceAtom, readBootLanguage(storage));
  const roam = (values: PreferencePatch) => {
    const primary = primaryAccountId((store.get(accountsAtom) ?? []).map((account) => account.accountId));
    if (primary) void update(primary, values).catch((error: unknown) => console.warn('Tern: the preference was not saved:', error));
  };
  return {
    ...local,
    setTheme(choice) {
      local.setTheme(choice);
      roam({ theme: choice });
    },
    setViewMode(mode) {
      local.setViewMode(mode);
      roam({ viewMode: mode });
    },
    setLanguage(choice) {
      store.set(languageChoiceAtom, choice);
      writeBootCache(storage, { language: choice });
      roam({ language: choice });
    },
  };
}
