/**
 * Tab inside a modal dialog: from the last control back to the first and, with Shift, from
 * the first to the last, so the keyboard never wanders behind the dialog.
 */
import type { KeyboardEvent } from 'react';

export function keepTabInside(event: KeyboardEvent, container: HTMLElement | null, focusableSelector: string): void {
  if (event.key !== 'Tab' || !container) return;
  const focusable = Array.from(container.querySelectorAll<HTMLElement>(focusableSelector));
  const first = focusable[0];
  const last = focusable.at(-1);
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first?.focus();
  }
}
