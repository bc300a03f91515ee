/** The boot shell (src-ui/shell/), before the app has loaded: read through shell-text.ts. */
export const shell = {
  mail: 'Mail',
  reload: 'Reload',
  starting: 'Starting the mail engine…',
  failed: 'The mail engine could not start: {reason}',
  opening: 'Opening your mail…',
  newerVersion: 'A newer version is available. Reload this tab to continue.',
};
