/** Tern on every device (issue 20): the phone layout, the installed app and its offline shell, mailto links, the app page. */
export const device = {
  folders: 'Folders',
  compose: 'Compose',
  swipeArchive: 'Archive',
  swipeDelete: 'Delete',
  updateReady: 'A new version is ready.',
  reload: 'Reload',
};
