/**
 * Gives the focus back to the mailbox after something that held it goes (a toast's button,
 * the menu `v` opened): the thread list, on its cursor row, or the open conversation when
 * the list is not shown (single thread view) — never the page, never a toolbar button.
 */
export function focusListOrConversation(): void {
  const candidates = ['#thread-list', '.reading-pane-scroll'].map((selector) => document.querySelector<HTMLElement>(selector));
  candidates.find((element) => element && !element.closest('[hidden]'))?.focus({ preventScroll: true });
}
