/** The app's frame (src-ui/app/): layout, toasts, banners, route errors. */
export const app = {
  notifications: 'Notifications',
  dismissNotification: 'Dismiss notification',
  searchResults: 'Search results',
};
