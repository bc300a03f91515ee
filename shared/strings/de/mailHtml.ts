import type { mailHtml as en } from '../en/mailHtml';

export const mailHtml: Record<keyof typeof en, string> = {
  largeMessage: 'Große Nachricht',
  thisMessageIsLarge: 'Diese Nachricht ist groß ({size}): Nur der erste Teil wird angezeigt.',
  showWhole: 'Ganze Nachricht anzeigen ({size})',
  loadingTheWholeMessage: 'Ganze Nachricht wird geladen…',
  remoteImagesBlocked: 'Externe Bilder blockiert',
  remoteImagesHidden: '{count, plural, one {# externes Bild ist} other {# externe Bilder sind}} zum Schutz der Privatsphäre ausgeblendet.',
  imagesNotLoaded: 'Die Bilder konnten nicht über den privaten Bild-Proxy geladen werden. Später erneut versuchen.',
  showImages: 'Bilder anzeigen',
  alwaysShowFrom: 'Immer anzeigen von {email}',
  remoteImagesShown: 'Externe Bilder angezeigt',
  alwaysShown: 'Bilder von {email} werden immer angezeigt.',
  stop: 'Beenden',
  stopLabel: 'Bilder von {email} nicht mehr immer anzeigen',
  thisMessageHasNo: 'Diese Nachricht enthält keinen Text.',
};
