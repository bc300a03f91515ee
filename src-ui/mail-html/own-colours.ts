/**
 * Pipeline step: does the mail choose colours of its own? A reply typed in a mail app, a
 * notification of a few paragraphs, sets no colour and no background: in the dark theme
 * it can take the app's dark colours (frame-document.ts) instead of glaring as a white
 * block. A mail that sets any colour, background or background picture, anywhere, is
 * designed on its own paper and keeps the light rendering (in a light card), as Gmail and
 * Fastmail do: dark text the sender chose on the app's dark background would be unreadable.
 *
 * Deliberately coarse: any `color`/`background` declaration, `bgcolor`/`background`/
 * `color`/`text` attribute, or blocked background counts. A false "has colours" only keeps
 * today's light rendering; a false "plain" could hide text, so every doubt is "has colours".
 */
import { BLOCKED_BACKGROUND_ATTR } from './remote-content';

/** The class on the frame's root of a mail with no colours of its own. */
export const PLAIN_COLOURS_CLASS = 'tern-mail-plain';

const COLOUR_ATTRIBUTES = ['bgcolor', 'background', 'color', 'text', 'link', 'vlink', 'alink', BLOCKED_BACKGROUND_ATTR];
const COLOUR_DECLARATION = /(?:^|[;{\s])(?:color|background(?:-color|-image)?|fill|filter|mix-blend-mode)\s*:/i;

export function declaresOwnColours(doc: Document): boolean {
  const selector = COLOUR_ATTRIBUTES.map((name) => `[${name}]`).join(',');
  if (doc.querySelector(selector)) return true;
  for (const element of Array.from(doc.querySelectorAll('[style]'))) {
    if (COLOUR_DECLARATION.test(element.getAttribute('style') ?? '')) return true;
  }
  for (const style of Array.from(doc.querySelectorAll('style'))) {
    if (COLOUR_DECLARATION.test(style.textContent ?? '')) return true;
  }
  // Drawings carry their own colours too.
  return doc.querySelector('svg, canvas') !== null;
}
