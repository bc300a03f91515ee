/**
 * Keys and buttons whose work belongs to the composer and the conversation view are
 * announced as DOM events on `window`; those components listen for them. The list does
 * not know how replies are written, and the composer does not know about the list.
 */
export const MAIL_EVENTS = {
  /** Open a new message. detail: `{ accountId }` (the account to send from). */
  compose: 'tern:compose',
  /** Reply to the thread. detail: `{ accountId, threadId }`. */
  reply: 'tern:reply',
  /** Reply to everyone on the thread. */
  replyAll: 'tern:reply-all',
  /** Forward the thread. */
  forward: 'tern:forward',
} as const;

export type MailEventName = (typeof MAIL_EVENTS)[keyof typeof MAIL_EVENTS];

export interface MailEventDetail {
  readonly accountId?: string;
  readonly threadId?: string;
}

export function dispatchMailEvent(name: MailEventName, detail: MailEventDetail = {}): void {
  window.dispatchEvent(new CustomEvent<MailEventDetail>(name, { detail }));
}
