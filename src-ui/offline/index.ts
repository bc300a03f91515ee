/** The installed app and its offline shell, as the other features use it (the service worker itself is built on its own). */
export { installOffered, promptInstall, requestPersistentStorage, runsInstalled, subscribeToUpdate } from './sw-registration';
export { UpdateBanner } from './UpdateBanner';
export { chooseKeepOffline, keepOfflineChosen, keepOfflineDays, OFFLINE_DAY_CHOICES, offlineProgress, runKeepOffline, subscribeToOffline } from './keep-offline';
export { OfflineKeeper } from './OfflineKeeper';
