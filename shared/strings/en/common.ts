/** Words many screens share (buttons of dialogs, generic states). */
export const common = {
  cancel: 'Cancel',
  close: 'Close',
  save: 'Save',
  delete: 'Delete',
  ok: 'OK',
  retry: 'Try again',
  loading: 'Loading…',
  reload: 'Reload',
  undo: 'Undo',
  dismiss: 'Dismiss',
};
