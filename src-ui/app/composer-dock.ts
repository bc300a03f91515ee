/**
 * Where the composer's dock sits. A new message is a tall window at the bottom right. A
 * reply, reply all or forward (and a draft that answers a message) is an answer: a lower
 * window, and the reading pane makes room for it at its bottom (composer/composer-dock.css, "Answer dock")
 * so the conversation being answered stays readable and scrolls above the composer, as
 * it does under Gmail's reply box — it used to cover the whole pane at 1280×800.
 */
import type { ComposerInitial } from '../composer/compose-initial';

/** Whether the composer answers a message (its conversation is the one to keep in sight). */
export const isAnswer = (initial: Pick<ComposerInitial, 'mode' | 'inReplyToMessageId'>): boolean =>
  initial.mode !== 'new' || Boolean(initial.inReplyToMessageId);

export function dockClassName(initial: Pick<ComposerInitial, 'mode' | 'inReplyToMessageId'>, minimized: boolean): string {
  return ['composer-dock', isAnswer(initial) ? 'is-answer' : '', minimized ? 'is-minimized' : ''].filter(Boolean).join(' ');
}

/**
 * Once the pane has made room for an answer: its last message, when it ended up under the
 * composer, is scrolled up into what stays visible (its end, or its start when it is taller
 * than that). Nothing moves when it is already in sight.
 */
export function revealLastMessage(doc: Document = document): void {
  const scroller = doc.querySelector<HTMLElement>('.reading-pane .reading-pane-scroll');
  const messages = scroller?.querySelectorAll<HTMLElement>('.tern-message');
  const last = messages?.[messages.length - 1];
  if (!scroller || !last) return;
  const view = scroller.getBoundingClientRect();
  const box = last.getBoundingClientRect();
  if (box.bottom <= view.bottom) return;
  // Its bottom to the visible bottom, without pushing its top out of sight.
  const by = Math.min(box.bottom - view.bottom, Math.max(0, box.top - view.top));
  if (by > 0) scroller.scrollTop += by;
}
