/** The composer's styles (see conversation/base-styles.ts for why they are strings). */
import { BASE_CSS } from '../kit/base-styles';

export const COMPOSER_CSS = `${BASE_CSS}
.tern-composer {
  position: relative; display: flex; flex-direction: column; min-height: 420px; height: 100%;
  background: var(--t-bg); border: 1px solid var(--t-line); border-radius: 12px; box-shadow: 0 8px 28px rgb(0 0 0 / .12), 0 1px 3px rgb(0 0 0 / .06);
  overflow: hidden; font-size: 14px;
}
.tern-composer-header { display: flex; align-items: center; gap: 10px; padding: 8px 8px 8px 16px; background: var(--t-surface); border-bottom: 1px solid var(--t-line); }
/* Minimized: only the title bar shows; the rest stays in the page (the editor keeps its text). */
.tern-composer.is-minimized { min-height: 0; height: auto; }
.tern-composer.is-minimized > :not(.tern-composer-header) { display: none; }
.tern-composer.is-minimized .tern-composer-header { border-bottom: 0; }
.tern-composer.is-minimized .tern-composer-title { cursor: pointer; }
.tern-composer-title { flex: 1; min-width: 0; margin: 0; font-size: 14px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tern-save-status { font-size: 12px; color: var(--t-muted); min-width: 3em; text-align: right; }
.tern-save-status.is-failed, .tern-save-status.is-conflict { color: color-mix(in srgb, var(--t-danger) 78%, var(--t-fg)); font-weight: 600; }
/* On this device only: not an error yet, but not "Saved" either. */
.tern-save-status.is-local { color: color-mix(in srgb, #d9480f 72%, var(--t-fg)); }
.tern-save-status { white-space: nowrap; }
.tern-visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
.tern-conflict-bar {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; padding: 10px 16px; border-bottom: 1px solid color-mix(in srgb, var(--t-danger) 35%, var(--t-line));
  background: color-mix(in srgb, var(--t-danger) 8%, var(--t-bg)); color: var(--t-fg);
}
.tern-conflict-text { flex: 1 1 240px; margin: 0; font-size: 13px; }
.tern-conflict-actions { display: flex; flex-wrap: wrap; gap: 8px; }
.tern-conflict-actions .tern-button { height: 30px; padding: 0 12px; font-size: 13px; }
.tern-server-reply { display: inline-block; margin-top: 4px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; overflow-wrap: anywhere; }
.tern-composer-fields { display: flex; flex-direction: column; padding: 0 16px; }
.tern-from-row, .tern-recipient-row, .tern-subject-row { display: flex; align-items: flex-start; gap: 8px; border-bottom: 1px solid var(--t-line); min-height: 42px; }
.tern-field-label { flex: none; width: 52px; padding-top: 11px; font-size: 13px; color: var(--t-muted); }
.tern-from-select, .tern-from-static {
  flex: 1; min-width: 0; height: 40px; border: 0; background: transparent; color: var(--t-fg); font: inherit; padding: 0; align-self: center;
  display: flex; align-items: center;
}
.tern-from-select { cursor: pointer; }
.tern-subject { flex: 1; min-width: 0; height: 41px; border: 0; background: transparent; color: var(--t-fg); font: inherit; font-weight: 500; padding: 0; outline: none; }
.tern-subject-row:focus-within, .tern-recipient-row:focus-within, .tern-from-row:focus-within { border-bottom-color: var(--t-accent); box-shadow: 0 1px 0 var(--t-accent); }
/* Text fields in a row show focus with the row's accent underline instead of a ring. */
.tern-composer .tern-chip-input:focus-visible, .tern-composer .tern-subject:focus-visible, .tern-composer .tern-from-select:focus-visible { outline: none; }
.tern-recipient-row { position: relative; }
.tern-recipient-field { position: relative; flex: 1; min-width: 0; display: flex; flex-wrap: wrap; align-items: flex-start; }
.tern-recipient-field > .tern-field-label { margin-right: 8px; }
.tern-chips { flex: 1; min-width: 0; list-style: none; margin: 0; padding: 6px 0; display: flex; flex-wrap: wrap; align-items: center; gap: 4px; }
.tern-chip {
  display: inline-flex; align-items: center; max-width: 100%; height: 28px; padding: 0 2px 0 10px; border-radius: 999px;
  background: color-mix(in srgb, var(--t-accent) 10%, var(--t-bg)); border: 1px solid color-mix(in srgb, var(--t-accent) 22%, var(--t-line));
}
.tern-chip.is-invalid { background: color-mix(in srgb, var(--t-danger) 10%, var(--t-bg)); border-color: color-mix(in srgb, var(--t-danger) 55%, transparent); color: var(--t-danger); }
.tern-chip.is-invalid .tern-chip-label { text-decoration: underline wavy color-mix(in srgb, var(--t-danger) 70%, transparent); text-underline-offset: 3px; }
.tern-chip-label { min-width: 0; max-width: 260px; border: 0; background: none; padding: 0; color: inherit; font: inherit; font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: text; }
.tern-chip-remove {
  display: inline-grid; place-items: center; width: 22px; height: 22px; margin-left: 2px; border: 0; border-radius: 50%;
  background: none; color: var(--t-muted); font-size: 16px; line-height: 1; cursor: pointer;
}
.tern-chip-remove:hover { background: var(--t-hover); color: var(--t-fg); }
.tern-chip-input-item { flex: 1 1 140px; min-width: 140px; }
.tern-chip-input { width: 100%; height: 28px; border: 0; background: transparent; color: var(--t-fg); font: inherit; padding: 0 2px; outline: none; }
.tern-cc-toggles { flex: none; display: flex; gap: 2px; padding-top: 8px; }
.tern-field-error { flex-basis: 100%; margin: 0 0 8px 60px; color: var(--t-danger); font-size: 12.5px; }
.tern-suggestions {
  position: absolute; z-index: 20; top: 100%; left: 56px; right: 0; max-width: 440px; margin: 2px 0 0; padding: 4px; list-style: none;
  background: var(--t-bg); border: 1px solid var(--t-line); border-radius: 10px; box-shadow: 0 12px 32px rgb(0 0 0 / .16);
}
.tern-suggestions[hidden] { display: none; }
.tern-suggestion { display: flex; align-items: center; gap: 10px; padding: 6px 10px; border-radius: 7px; cursor: pointer; }
.tern-suggestion.is-active { background: color-mix(in srgb, var(--t-accent) 12%, var(--t-bg)); }
.tern-suggestion-text { display: flex; flex-direction: column; min-width: 0; }
.tern-suggestion-name { font-size: 13.5px; font-weight: 500; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tern-suggestion-email { font-size: 12px; color: var(--t-muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tern-suggestion-remove { margin-left: auto; flex: none; width: 24px; height: 24px; border: 0; border-radius: 50%; background: transparent; color: var(--t-muted); font-size: 16px; line-height: 1; cursor: pointer; visibility: hidden; }
.tern-suggestion.is-active .tern-suggestion-remove, .tern-suggestion:hover .tern-suggestion-remove { visibility: visible; }
.tern-suggestion-remove:hover { background: var(--t-hover, rgba(127, 127, 127, 0.15)); color: inherit; }

.tern-editor-wrap { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
/* The editor keeps a few lines to write in (the attachments give up height first, issue point 23:
   three forwarded files used to squeeze it to 0 px and cover the formatting bar). */
.tern-composer .tern-editor-wrap { min-height: 140px; }
.tern-composer.is-minimized .tern-editor-wrap { min-height: 0; }
.tern-editor-wrap > .tern-toolbar { order: -2; }
.tern-editor-wrap > .tern-link-popover { order: -1; }
.tern-toolbar { display: flex; gap: 2px; padding: 6px 12px; border-bottom: 1px solid color-mix(in srgb, var(--t-line) 60%, transparent); }
.tern-toolbar .tern-icon-button { width: 30px; height: 30px; }
.tern-link-popover { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 8px 16px; background: var(--t-surface); border-bottom: 1px solid var(--t-line); font-size: 13px; }
.tern-link-popover input { flex: 1 1 220px; height: 30px; padding: 0 8px; border: 1px solid var(--t-line); border-radius: 6px; background: var(--t-bg); color: var(--t-fg); font: inherit; }
.tern-link-popover .tern-field-error { margin: 0; }
.tern-editor {
  flex: 1; min-height: 180px; overflow: auto; padding: 14px 16px; outline: none; line-height: 1.55; overflow-wrap: break-word;
  /* A containing block and a paint boundary: nothing inside can cover the app around it. */
  position: relative; contain: paint;
}
.tern-editor:focus-visible { outline: none; box-shadow: inset 0 0 0 2px color-mix(in srgb, var(--t-accent) 35%, transparent); }
.tern-editor p { margin: 0 0 .6em; }
.tern-editor blockquote[type=cite] { margin: .4em 0 .4em .4em; padding-left: .9em; border-left: 2px solid var(--t-line); color: var(--t-muted); }
.tern-editor .tern-quote > p, .tern-editor .tern-forward-header { color: var(--t-muted); font-size: 13px; }
.tern-editor img { max-width: 100%; }
.tern-editor img[data-tern-blocked-src] { display: inline-block; min-width: 16px; min-height: 16px; background: var(--t-hover); outline: 1px dashed var(--t-line); }
.tern-editor a { color: var(--t-accent); }
/* The identity's signature (signature-html.ts): part of the message, set a little apart. */
.tern-editor .tern-signature { color: color-mix(in srgb, var(--t-fg) 78%, var(--t-muted)); }

.tern-upload-list {
  list-style: none; margin: 0; padding: 8px 16px; border-top: 1px solid var(--t-line);
  /* Compact tiles, as many per row as fit; a long list scrolls inside itself (two rows and a bit
     show) and may shrink to one row before the editor gives up anything. */
  display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); align-content: start; gap: 6px;
  flex: 0 1 auto; min-height: 54px; max-height: 104px; overflow: auto; overscroll-behavior: contain;
}
.tern-upload { display: flex; align-items: center; gap: 8px; min-width: 0; min-height: 36px; padding: 2px 2px 2px 8px; border: 1px solid var(--t-line); border-radius: 8px; background: var(--t-surface); }
/* A refused or failed file says why on a line of its own: it takes the whole row. */
.tern-upload:has(.tern-upload-message) { grid-column: 1 / -1; }
.tern-upload .tern-icon-button { width: 28px; height: 28px; }
.tern-upload.is-rejected, .tern-upload.is-failed { border-color: color-mix(in srgb, var(--t-danger) 45%, var(--t-line)); background: color-mix(in srgb, var(--t-danger) 6%, var(--t-bg)); }
.tern-upload-icon { color: var(--t-muted); display: flex; }
.tern-upload.is-rejected .tern-upload-icon, .tern-upload.is-failed .tern-upload-icon { color: var(--t-danger); }
.tern-upload-text { flex: 1; min-width: 0; display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 6px; }
.tern-upload-name { flex: 0 1 auto; min-width: 0; font-size: 13px; font-weight: 500; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 100%; }
.tern-upload-meta { flex: none; font-size: 12px; color: var(--t-muted); white-space: nowrap; }
.tern-upload:not(:has(.tern-upload-message)) .tern-upload-text { flex-wrap: nowrap; }
.tern-upload-message { flex-basis: 100%; font-size: 12px; color: var(--t-muted); }
.tern-upload-message.is-error { color: var(--t-danger); }
.tern-upload-progress { flex: none; width: 56px; height: 6px; border-radius: 3px; background: var(--t-hover); overflow: hidden; }
.tern-upload-progress-value { display: block; height: 100%; border-radius: 3px; background: var(--t-accent); transition: width .2s linear; }
/* Every byte sent, the gateway still storing: the full bar breathes until the answer. */
.tern-upload-progress[aria-valuenow="100"] .tern-upload-progress-value { animation: tern-upload-finishing 1s ease-in-out infinite alternate; }
@keyframes tern-upload-finishing { to { opacity: .45; } }
@media (prefers-reduced-motion: reduce) { .tern-upload-progress-value { transition: none; animation: none !important; } }

/* An answer carrying files (a forward's, or added) needs more room than the low answer dock
   (composer/composer-dock.css, "Answer dock"): it grows, and the room the reading pane keeps below the
   conversation grows with it, so the editor keeps its height and the last message stays in sight. */
.composer-dock.is-answer:not(.is-minimized):has(.tern-upload-list[aria-label]) { height: min(560px, 72vh, 100vh - 72px); }
body:has(.composer-dock.is-answer:not(.is-minimized) .tern-upload-list[aria-label]) .reading-pane:not(.reading-pane-empty) { padding-bottom: calc(min(560px, 72vh, 100vh - 72px) - 12px); }

.tern-composer-notice { margin: 0; padding: 8px 16px; font-size: 13px; border-top: 1px solid var(--t-line); }
.tern-composer-notice.is-error { color: var(--t-danger); background: color-mix(in srgb, var(--t-danger) 6%, var(--t-bg)); }
.tern-composer-notice.is-info { color: var(--t-fg); background: color-mix(in srgb, var(--t-accent) 8%, var(--t-bg)); }
.tern-composer-footer { display: flex; align-items: center; gap: 6px; padding: 10px 12px 12px 16px; border-top: 1px solid var(--t-line); }
.tern-send { height: 36px; padding: 0 18px; border-radius: 999px; font-weight: 600; }
.tern-footer-hint { font-size: 12.5px; color: var(--t-muted); margin-left: 6px; }
.tern-footer-hint.is-error { color: var(--t-danger); }
.tern-drop-overlay {
  position: absolute; inset: 6px; z-index: 30; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 8px;
  border: 2px dashed var(--t-accent); border-radius: 10px; background: color-mix(in srgb, var(--t-accent) 10%, color-mix(in srgb, var(--t-bg) 92%, transparent));
  color: var(--t-accent); font-weight: 600; pointer-events: none;
}
.tern-send-toast {
  position: relative; flex-direction: row; align-items: center; gap: 14px; min-height: 0; height: auto; width: max-content; max-width: 100%;
  padding: 12px 16px; background: #1f2328; color: #f1f3f5; border: 0; border-radius: 10px; overflow: hidden;
}
.tern-send-toast .tern-link-button { color: #8ce99a; font-weight: 600; }
.tern-send-toast-bar { position: absolute; left: 0; bottom: 0; height: 3px; width: 100%; background: #8ce99a; transform-origin: left; animation: tern-undo-window linear forwards; }
@keyframes tern-undo-window { from { transform: scaleX(1); } to { transform: scaleX(0); } }
@media (prefers-reduced-motion: reduce) { .tern-send-toast-bar { animation: none; } }

/* Emoji (ComposerEmoji.tsx): the picker above its button; on a phone, across the screen. */
.tern-emoji { position: relative; display: inline-flex; }
.tern-emoji-popover { position: absolute; bottom: calc(100% + 8px); left: 0; z-index: 40; border-radius: 12px; box-shadow: 0 8px 28px rgb(0 0 0 / 0.22); background: var(--t-bg); }
.tern-emoji-popover emoji-picker { --border-radius: 12px; height: 340px; }
.tern-emoji-status { margin: 0; padding: 12px 16px; font-size: 13px; color: var(--t-muted); }
@media (max-width: 520px) {
  .tern-emoji-popover { position: fixed; left: 8px; right: 8px; bottom: 76px; }
  .tern-emoji-popover emoji-picker { width: 100%; }
}
/* Read receipt toggle (Composer footer): pressed when the message asks for one. */
.tern-icon-button[aria-pressed="true"] { color: var(--t-accent); background: color-mix(in srgb, var(--t-accent) 12%, transparent); }
`;
