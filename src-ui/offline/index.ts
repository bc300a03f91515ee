/** The installed app and its offline shell, as the other features use it (the service worker itself is built on its own). */
export { installOffered, promptInstall, requestPersistentStorage, runsInstalled, subscribeToUpdate } from './sw-registration';
export { UpdateBanner } from './UpdateBanner';
