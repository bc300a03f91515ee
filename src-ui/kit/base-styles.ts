/**
 * Styles shared by the reading and writing views: buttons, icon buttons,
 * attachment tiles and the attachment viewer. Injected with React 19's hoisted
 * `<style href precedence>` (deduplicated by href), because these views are lazy chunks
 * and esbuild does not load CSS files imported by a lazy chunk.
 *
 * Colours come from the shell's custom properties (--accent, --bg, --fg, --muted,
 * --line), with fallbacks so the views also look right on their own (tests, fixtures).
 */
export const BASE_CSS = `
.tern-ui, .tern-conversation, .tern-composer, .tern-preview-backdrop {
  --t-accent: var(--accent, #0b7285);
  --t-on-accent: var(--on-accent, #fff);
  --t-bg: var(--bg, #fff);
  --t-fg: var(--fg, #1f2328);
  --t-muted: var(--muted, #59636e);
  --t-line: var(--line, #d1d9e0);
  --t-surface: var(--surface, color-mix(in srgb, var(--t-fg) 3%, var(--t-bg)));
  --t-hover: color-mix(in srgb, var(--t-fg) 7%, transparent);
  --t-danger: #c92a2a;
  --t-radius: 10px;
  --t-shadow: 0 1px 2px rgb(0 0 0 / .06), 0 2px 8px rgb(0 0 0 / .06);
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  color: var(--t-fg);
}
.tern-icon { flex: none; display: block; }
.tern-button {
  display: inline-flex; align-items: center; gap: 6px; height: 32px; padding: 0 12px;
  border: 1px solid var(--t-line); border-radius: 8px; background: var(--t-bg); color: var(--t-fg);
  font: inherit; font-size: 13px; font-weight: 500; cursor: pointer; white-space: nowrap;
}
.tern-button:hover:not(:disabled) { background: var(--t-hover); }
.tern-button:disabled { opacity: .55; cursor: default; }
/* A link that looks like a button (the attachment viewer's "Open in new tab"). */
a.tern-button { text-decoration: none; }
.tern-button-primary { background: var(--t-accent); border-color: var(--t-accent); color: var(--t-on-accent); }
.tern-button-primary:hover:not(:disabled) { background: color-mix(in srgb, var(--t-accent) 88%, black); }
.tern-icon-button {
  display: inline-grid; place-items: center; width: 32px; height: 32px; padding: 0; border: 0; border-radius: 8px;
  background: transparent; color: var(--t-muted); cursor: pointer; font: inherit; font-size: 18px;
}
.tern-icon-button:hover:not(:disabled) { background: var(--t-hover); color: var(--t-fg); }
.tern-icon-button[aria-pressed="true"] { background: color-mix(in srgb, var(--t-accent) 16%, transparent); color: var(--t-accent); }
.tern-icon-button:disabled { opacity: .45; cursor: default; }
.tern-link-button { border: 0; background: none; padding: 2px 4px; border-radius: 4px; color: var(--t-accent); font: inherit; font-weight: 500; cursor: pointer; }
.tern-link-button:hover { text-decoration: underline; }
.tern-ui :focus-visible, .tern-conversation :focus-visible, .tern-composer :focus-visible, .tern-preview :focus-visible {
  outline: 2px solid var(--t-accent); outline-offset: 2px;
}
.tern-badge { display: inline-block; padding: 1px 7px; border-radius: 999px; font-size: 11px; font-weight: 600; line-height: 16px; }
.tern-badge-draft { background: #fde8e8; color: #b42318; }

/* Attachment tiles */
.tern-attachments { margin: 4px 0 0; padding: 12px 0 0; border-top: 1px dashed var(--t-line); }
.tern-att-heading { display: flex; align-items: center; gap: 6px; margin: 0 0 10px; font-size: 12px; font-weight: 600; color: var(--t-muted); }
.tern-att-list { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 10px; }
.tern-att-tile {
  position: relative; display: flex; align-items: center; width: 248px; max-width: 100%;
  border: 1px solid var(--t-line); border-radius: var(--t-radius); background: var(--t-bg); overflow: hidden;
  transition: box-shadow .15s, border-color .15s;
}
.tern-att-tile:hover, .tern-att-tile:focus-within { box-shadow: var(--t-shadow); border-color: color-mix(in srgb, var(--t-accent) 40%, var(--t-line)); }
.tern-att-main {
  flex: 1; min-width: 0; display: flex; align-items: center; gap: 10px; padding: 8px; border: 0; background: none;
  color: inherit; font: inherit; text-align: left; cursor: pointer;
}
.tern-att-thumb, .tern-att-icon { flex: none; width: 40px; height: 40px; border-radius: 6px; }
.tern-att-thumb { object-fit: cover; background: var(--t-surface); }
.tern-att-icon { display: grid; place-items: center; background: #eef2f6; color: #52606d; }
.tern-att-icon-pdf { background: #fdecea; color: #c92a2a; }
.tern-att-icon-image { background: #e7f5ff; color: #1971c2; }
.tern-att-icon-video { background: #f3f0ff; color: #6741d9; }
.tern-att-icon-audio { background: #fff4e6; color: #d9480f; }
.tern-att-text { min-width: 0; display: flex; flex-direction: column; gap: 2px; }
.tern-att-name { font-size: 13px; font-weight: 500; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tern-att-meta { font-size: 12px; color: var(--t-muted); }
.tern-att-actions { display: flex; padding-right: 4px; opacity: 0; transition: opacity .15s; }
.tern-att-tile:hover .tern-att-actions, .tern-att-tile:focus-within .tern-att-actions { opacity: 1; }
@media (hover: none) { .tern-att-actions { opacity: 1; } }
.tern-att-error { color: var(--t-danger); font-size: 13px; margin: 8px 0 0; }

/* Attachment viewer */
.tern-preview-backdrop {
  position: fixed; inset: 0; z-index: 1000; display: grid; place-items: center; padding: 24px;
  background: rgb(15 18 22 / .72); backdrop-filter: blur(2px);
}
/* A native modal <dialog> filling the viewport: none of the browser's dialog box, its own dim instead of ::backdrop. */
dialog.tern-preview-backdrop { box-sizing: border-box; width: 100%; height: 100%; max-width: none; max-height: none; margin: 0; border: 0; }
dialog.tern-preview-backdrop:not([open]) { display: none; }
dialog.tern-preview-backdrop::backdrop { background: transparent; }
.tern-preview {
  display: flex; flex-direction: column; width: min(1100px, 100%); height: min(860px, 100%);
  background: var(--t-bg); color: var(--t-fg); border-radius: 12px; overflow: hidden; box-shadow: 0 24px 64px rgb(0 0 0 / .35);
}
.tern-preview-header { display: flex; align-items: center; gap: 10px; padding: 10px 12px 10px 18px; border-bottom: 1px solid var(--t-line); }
.tern-preview-title { flex: 1; min-width: 0; margin: 0; font-size: 15px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tern-preview-meta { color: var(--t-muted); font-size: 13px; }
.tern-preview-nav { display: flex; align-items: center; gap: 4px; font-size: 13px; color: var(--t-muted); }
.tern-preview-body { flex: 1; min-height: 0; display: grid; place-items: center; background: #f1f3f5; overflow: auto; }
.tern-preview-body-pdf { display: block; }
.tern-preview-image { max-width: 100%; max-height: 100%; object-fit: contain; background: repeating-conic-gradient(#e9ecef 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
.tern-preview-video { max-width: 100%; max-height: 100%; background: #000; }
.tern-preview-audio { width: min(480px, 90%); }
.tern-preview-pdf { width: 100%; height: 100%; border: 0; display: block; }
.tern-preview-status { color: var(--t-muted); padding: 24px; }
/* Dark: the theme the shell chose (data-theme, from the settings dropdown), or the system's
   when no shell set one (the views on their own). The media query alone ignored the setting. */
:root[data-theme="dark"] .tern-preview-body { background: #0f1216; }
:root[data-theme="dark"] .tern-att-icon { background: #22272e; color: #adb5bd; }
:root[data-theme="dark"] .tern-badge-draft { background: #4a1d1d; color: #ffb4ab; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme]) .tern-preview-body { background: #0f1216; }
  :root:not([data-theme]) .tern-att-icon { background: #22272e; color: #adb5bd; }
  :root:not([data-theme]) .tern-badge-draft { background: #4a1d1d; color: #ffb4ab; }
}
`;
