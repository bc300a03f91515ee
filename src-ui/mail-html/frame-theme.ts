/**
 * The app's theme, mirrored onto a mail frame's root as `data-tern-theme`, so the frame's
 * base sheet can show a mail without colours of its own in the app's dark colours
 * (frame-document.ts, own-colours.ts). Read from the app's root (theme.ts's applyTheme
 * sets `data-theme` there) and followed when the person switches theme: the frame's
 * document is written once and not rebuilt for a theme change.
 */

export const FRAME_THEME_ATTR = 'data-tern-theme';

function appTheme(): string {
  return typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

export function followAppTheme(doc: Document): void {
  const root = doc.documentElement;
  const theme = appTheme();
  if (root && root.getAttribute(FRAME_THEME_ATTR) !== theme) root.setAttribute(FRAME_THEME_ATTR, theme);
}

/** Calls `onChange` when the app's theme changes; returns the way to stop. */
export function watchAppTheme(onChange: () => void): () => void {
  if (typeof MutationObserver !== 'function' || typeof document === 'undefined') return () => undefined;
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}
