/** Around a mail's body (src-ui/mail-html/): remote images, large bodies. */
export const mailHtml = {
  largeMessage: 'Large message',
  thisMessageIsLarge: 'This message is large ({size}): only its first part is shown.',
  showWhole: 'Show the whole message ({size})',
  loadingTheWholeMessage: 'Loading the whole message…',
  remoteImagesBlocked: 'Remote images blocked',
  remoteImagesHidden: '{count, plural, one {# remote image is hidden} other {# remote images are hidden}} to protect your privacy.',
  imagesNotLoaded: 'The images could not be loaded through the private image proxy. Try again later.',
  showImages: 'Show images',
  alwaysShowFrom: 'Always show from {email}',
  remoteImagesShown: 'Remote images shown',
  alwaysShown: 'Images from {email} are always shown.',
  stop: 'Stop',
  stopLabel: 'Stop always showing images from {email}',
  thisMessageHasNo: 'This message has no text.',
};
