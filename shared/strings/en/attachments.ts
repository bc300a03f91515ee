/** Attachments under a message and their preview (src-ui/attachments/). */
export const attachments = {
  attachments: 'Attachments',
  count: '{count, plural, one {# attachment} other {# attachments}}',
  untitled: 'Untitled attachment',
  previewNamed: 'Preview {name} ({size})',
  downloadNamed: 'Download {name} ({size})',
  downloadName: 'Download {name}',
  download: 'Download',
  loading: 'Loading',
  couldNotBeOpened: 'could not be opened.',
  previousAttachment: 'Previous attachment',
  position: '{index} of {count}',
  nextAttachment: 'Next attachment',
  openInNewTab: 'Open in new tab',
  openNamedInNewTab: 'Open {name} in a new tab',
  closePreview: 'Close preview',
};
