/**
 * Where the focus goes when a composer closes (Escape, Close, Send, Discard): back to what
 * opened it — the conversation's Reply button, the thread list the `r` came from, the
 * Compose button — as Gmail does, never to the page (a keyboard user would have to Tab
 * through the sidebar again, a screen reader would announce nothing). When that element
 * is gone (the conversation changed meanwhile), the open conversation takes it, else the
 * thread list.
 */

/** Inside the composer's dock: not an opener (a composer replacing another keeps the first one's). */
const DOCK_SELECTOR = '.composer-dock';
const FALLBACKS = ['.reading-pane .reading-pane-scroll', '#thread-list'] as const;

/** The element that has the focus as a composer opens, when it is one to come back to. */
export function openerOf(active: Element | null, previous: HTMLElement | null = null): HTMLElement | null {
  if (!(active instanceof HTMLElement) || active === document.body || active === document.documentElement) return previous;
  if (active.closest(DOCK_SELECTOR)) return previous;
  return active;
}

/** Whether the focus fell to the page (the focused control left with the composer). */
export function focusIsLost(doc: Document = document): boolean {
  const active = doc.activeElement;
  return !active || active === doc.body || active === doc.documentElement;
}

const usable = (element: HTMLElement | null): element is HTMLElement =>
  element !== null && element.isConnected && !element.closest('[hidden], [inert]') && !(element as HTMLButtonElement).disabled;

/** The element to focus: the opener while it is still on the page, else the conversation, else the list. */
export function returnTarget(opener: HTMLElement | null, doc: Document = document): HTMLElement | null {
  if (usable(opener)) return opener;
  for (const selector of FALLBACKS) {
    const element = doc.querySelector<HTMLElement>(selector);
    if (usable(element)) return element;
  }
  return null;
}

/** Gives the focus back once the composer has left, unless the person put it somewhere meanwhile. */
export function restoreComposerFocus(opener: HTMLElement | null, doc: Document = document): HTMLElement | null {
  if (!focusIsLost(doc)) return null;
  const target = returnTarget(opener, doc);
  target?.focus({ preventScroll: true });
  return target;
}
