/**
 * The engine's settings pushes (SettingsService.watch): every account's preferences and
 * plan into accountSettingsAtom, and the PRIMARY account's app-wide choices (theme, view,
 * language) into the atoms the app reads, so a change made in another browser shows here
 * without a reload. Each is also written to this browser's boot cache (localStorage), which
 * only serves the first paint and the login screen before the engine answers (no flash).
 */
import { primaryAccountId } from '../../../shared/account';
import type { AccountSettings } from '../../../shared/worker-api';
import { themeChoiceAtom, viewModeAtom } from '../atoms';
import { writeBootCache } from '../boot-preferences';
import { accountSettingsAtom, languageChoiceAtom } from '../settings-atoms';
import type { FeedContext } from './feed-context';

export interface SettingsFeed {
  /** Starts following the engine's settings; resolves once subscribed (or the engine has no settings service). */
  start(): Promise<void>;
  stop(): void;
}

/** The primary account's settings (spec §4: app-wide choices are the primary account's). */
export function primarySettings(list: readonly AccountSettings[]): AccountSettings | undefined {
  const primary = primaryAccountId(list.map((settings) => settings.accountId));
  return list.find((settings) => settings.accountId === primary);
}

export function createSettingsFeed(context: FeedContext, storage?: Pick<Storage, 'setItem'>): SettingsFeed {
  const { engine, store, isStopped } = context;
  let subscriptionId: string | null = null;

  const onSettings = (list: readonly AccountSettings[]) => {
    if (isStopped()) return;
    store.set(accountSettingsAtom, Object.fromEntries(list.map((settings) => [settings.accountId, settings])));
    const primary = primarySettings(list);
    // Revision 0 and nothing pending: the account never chose (or the engine has not heard
    // from the gateway yet); this browser's boot cache stays, so nothing flips to a default.
    if (!primary || (primary.revision === 0 && !primary.unsynced)) return;
    const { theme, viewMode, language } = primary.preferences;
    store.set(themeChoiceAtom, theme);
    store.set(viewModeAtom, viewMode);
    store.set(languageChoiceAtom, language);
    writeBootCache(storage, { theme, viewMode, language });
  };

  return {
    async start() {
      const settings = engine.settings;
      if (!settings) return;
      try {
        const { subscriptionId: id } = await settings.watch(onSettings);
        if (isStopped()) void settings.unwatch({ subscriptionId: id }).catch(() => undefined);
        else subscriptionId = id;
      } catch {
        // An engine without settings (an older build mid-update): the boot cache stays in charge.
      }
    },
    stop() {
      if (subscriptionId && engine.settings) void engine.settings.unwatch({ subscriptionId }).catch(() => undefined);
      subscriptionId = null;
    },
  };
}
