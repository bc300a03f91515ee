/** The reading view's styles (see base-styles.ts for why they are strings). */
import { BASE_CSS } from '../kit/base-styles';

export const CONVERSATION_CSS = `${BASE_CSS}
.tern-conversation { display: flex; flex-direction: column; gap: 0; max-width: 980px; margin: 0 auto; padding: 20px 24px 32px; }
.tern-conversation-header { display: flex; align-items: flex-start; justify-content: space-between; gap: 16px; padding: 4px 4px 16px; }
.tern-conversation-subject { margin: 0; font-size: 22px; line-height: 1.3; font-weight: 600; letter-spacing: -.01em; overflow-wrap: anywhere; }
.tern-conversation-heading { min-width: 0; display: flex; flex-direction: column; gap: 4px; }
.tern-conversation-place { margin: 0; font-size: 13px; color: var(--t-muted); overflow-wrap: anywhere; }
.tern-conversation-tools { display: flex; align-items: center; gap: 8px; flex: none; padding-top: 4px; font-size: 13px; color: var(--t-muted); }
.tern-message-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; border: 1px solid var(--t-line); border-radius: 12px; background: var(--t-bg); box-shadow: var(--t-shadow); }
.tern-message-list > li + li { border-top: 1px solid var(--t-line); }
.tern-message { position: relative; }
/* Wraps: when the sender line would not fit whole beside the message actions (a long name, a narrow pane, a phone), the actions go under it. */
.tern-message-header { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 4px; padding-right: 10px; }
.tern-message-toggle {
  flex: 1 1 auto; min-width: 0; display: flex; align-items: center; gap: 12px; padding: 12px 8px 12px 16px;
  border: 0; background: none; color: inherit; font: inherit; text-align: left; cursor: pointer; border-radius: 12px;
}
.tern-message:not(.is-expanded) .tern-message-toggle:hover { background: var(--t-hover); }
.tern-message.is-expanded .tern-message-toggle { padding-top: 16px; align-items: flex-start; }
.tern-message-who { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 2px; }
/* Wraps: an address that does not fit beside the name goes under it rather than being cut to "<". */
.tern-message-from { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 6px; min-width: 0; font-size: 14px; }
.tern-message-name { max-width: 100%; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tern-message.is-unread .tern-message-name { color: var(--t-fg); }
.tern-message-email { min-width: 0; max-width: 100%; color: var(--t-muted); font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tern-unread-dot { flex: none; width: 8px; height: 8px; border-radius: 50%; background: var(--t-accent); align-self: center; }
.tern-message-sub { font-size: 13px; color: var(--t-muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tern-message-date { flex: none; display: flex; align-items: center; gap: 6px; font-size: 12.5px; color: var(--t-muted); white-space: nowrap; }
.tern-message.is-expanded .tern-message-date { padding-top: 2px; }
.tern-message-actions { flex: none; display: flex; gap: 2px; padding-top: 12px; margin-left: auto; }
.tern-message-content { padding: 0 20px 18px 64px; }
.tern-message-content[hidden] { display: none; }
@media (max-width: 640px) { .tern-message-content { padding-left: 16px; } .tern-conversation { padding: 12px 8px; } }

.tern-mail-body { display: flex; flex-direction: column; gap: 12px; }
.tern-mail-frame { display: block; width: 100%; border: 0; border-radius: 6px; background: #fff; color-scheme: light; }
/* Mail stays on white in the dark theme; without a margin of white its text touched the card's edges. */
:root[data-theme="dark"] .tern-mail-frame { box-sizing: content-box; width: calc(100% - 32px); padding: 12px 16px; }
.tern-mail-empty { color: var(--t-muted); font-style: italic; margin: 4px 0 12px; }
.tern-plain { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 14px; line-height: 1.55; }
.tern-plain a { color: var(--t-accent); }
.tern-plain-aligned { font-family: ui-monospace, 'SF Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace; font-size: 13px; }
.tern-plain-quote { margin: 4px 0; padding-left: 12px; border-left: 3px solid var(--t-line); color: var(--t-muted); }
.tern-remote-bar {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px 10px; padding: 8px 12px; border-radius: 8px;
  background: color-mix(in srgb, #f59f00 12%, var(--t-bg)); border: 1px solid color-mix(in srgb, #f59f00 35%, var(--t-line));
  font-size: 13px; color: var(--t-fg);
}
.tern-remote-bar > .tern-icon { color: #b35c00; }
.tern-remote-text { flex: 1 1 240px; }
/* A read receipt in its conversation (ConversationView): one quiet line, not a message card. */
.tern-receipt-line { display: flex; align-items: center; gap: 6px; padding: 6px 16px; font-size: 12.5px; color: var(--t-muted); }
.tern-remote-actions { display: flex; flex-wrap: wrap; gap: 4px; }
/* Reading images (G1): the way back from "Always show from …"; a mail without colours of its own in the app's dark colours (own-colours.ts). */
.tern-remote-trusted { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 8px; font-size: 12.5px; color: var(--t-muted); }
:root[data-theme="dark"] .tern-mail-frame.is-plain { box-sizing: border-box; width: 100%; padding: 0; background: transparent; color-scheme: dark; }
.tern-body-loading { display: flex; flex-direction: column; gap: 10px; padding: 6px 0 14px; }
.tern-skeleton { display: block; height: 12px; border-radius: 6px; background: linear-gradient(90deg, var(--t-hover), color-mix(in srgb, var(--t-fg) 12%, transparent), var(--t-hover)); background-size: 200% 100%; animation: tern-shimmer 1.2s linear infinite; }
.tern-skeleton-short { width: 60%; }
@keyframes tern-shimmer { to { background-position: -200% 0; } }
@media (prefers-reduced-motion: reduce) { .tern-skeleton { animation: none; } }
.tern-body-error { color: var(--t-danger); font-size: 14px; padding: 6px 0 12px; }
.tern-fold { display: flex; justify-content: center; padding: 0; position: relative; }
.tern-fold::before, .tern-fold::after { content: ''; position: absolute; left: 0; right: 0; height: 1px; background: var(--t-line); }
.tern-fold::before { top: 6px; } .tern-fold::after { bottom: 6px; }
.tern-fold-button {
  position: relative; z-index: 1; display: inline-flex; align-items: center; gap: 8px; margin: 0; padding: 6px 14px;
  border: 1px solid var(--t-line); border-radius: 999px; background: var(--t-bg); color: var(--t-muted); font: inherit; font-size: 13px; cursor: pointer;
}
.tern-fold-button:hover { color: var(--t-fg); background: var(--t-surface); }
.tern-fold-count { display: inline-grid; place-items: center; min-width: 22px; height: 22px; padding: 0 6px; border-radius: 999px; background: var(--t-hover); font-weight: 600; color: var(--t-fg); }
.tern-conversation-footer { display: flex; gap: 8px; padding: 16px 0 0 4px; }
`;
