/**
 * Fit to width, in the frame, after layout: a mail still wider than the frame once the
 * pipeline has made it as fluid as it safely can (fixed 600-700 px newsletter tables in a
 * narrow pane) is zoomed out as a whole until it fits, as Gmail and Fastmail do, instead
 * of scrolling sideways inside the conversation.
 *
 * CSS `zoom` on the body, not a transform: zoom scales layout too, so the frame's
 * document reports its zoomed height (MailFrame sizes the frame from it) and its scroll
 * width stays within the frame. The body is first given the width the mail needs, so its
 * fluid parts (a 100 % wide header band) lay out at that width and zoom with the rest.
 * Mail is never enlarged, and never shrunk below MIN_FIT_SCALE (text would be unreadable):
 * past that, the rest scrolls sideways.
 */

export const MIN_FIT_SCALE = 0.5;

/** Marks a body this module zoomed (its inline zoom and width are ours to undo). */
const FITTED = 'data-tern-fitted';

/**
 * Zooms `doc`'s body out so its content fits the frame's width; returns the scale used
 * (1: the mail fits as it is). Undoes its previous fit first, so a wider pane gets the
 * mail back at full size. Costs one layout when the mail fits and was not zoomed before.
 */
export function fitFrameToWidth(doc: Document): number {
  const root = doc.documentElement;
  const body = doc.body;
  if (!root || !body) return 1;
  if (body.hasAttribute(FITTED)) {
    body.removeAttribute(FITTED);
    body.style.removeProperty('zoom');
    body.style.removeProperty('width');
    body.style.removeProperty('box-sizing');
  }
  const available = root.clientWidth;
  const needed = root.scrollWidth;
  // One pixel of slack: sub-pixel layouts round the scroll width up.
  if (available <= 0 || needed <= available + 1) return 1;
  // Rounded down, so the zoomed width never rounds up past the frame.
  const scale = Math.max(MIN_FIT_SCALE, Math.floor((available / needed) * 1000) / 1000);
  body.setAttribute(FITTED, '');
  body.style.setProperty('box-sizing', 'border-box', 'important');
  body.style.setProperty('width', `${needed}px`, 'important');
  body.style.setProperty('zoom', String(scale), 'important');
  return scale;
}
