/**
 * Send notices (SendNotices.tsx) are toasts that carry more: a sentence, sometimes the mail
 * server's reply, and up to three actions. Their actions go on a row of their own under
 * the text, so the text keeps the toast's width on a phone instead of a column of one word.
 */
export const SEND_NOTICE_CSS = `
.toast.send-notice { flex-wrap: wrap; align-items: flex-start; row-gap: 6px; pointer-events: auto; }
.send-notice .toast-icon { margin-top: 2px; }
.send-notice .toast-text { flex: 1 1 0; min-width: 0; display: flex; flex-direction: column; gap: 4px; overflow-wrap: anywhere; }
.send-notice-reply { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; opacity: .9; }
.send-notice-actions { flex-basis: 100%; display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 4px 8px; }
`;
