/** The spell checker's styles (a string like the composer's: this is a lazy chunk, composer-styles.ts says why). */
export const SPELL_CSS = `
/* The misspelt words (spell-highlight.ts): drawn over the text, never in the editor's DOM. */
::highlight(tern-misspelt) { text-decoration: underline wavy #c92a2a; text-decoration-thickness: 1.5px; text-underline-offset: 3px; }
:root[data-theme="dark"] ::highlight(tern-misspelt) { text-decoration-color: #ff7b72; }
.tern-spell-language {
  height: 30px; max-width: 96px; padding: 0 6px; border: 1px solid var(--t-line); border-radius: 8px;
  background: var(--t-bg); color: var(--t-fg); font: inherit; font-size: 12.5px; cursor: pointer;
}
.tern-spell-menu {
  position: fixed; z-index: 60; min-width: 180px; max-width: calc(100vw - 16px); padding: 4px;
  background: var(--t-bg); color: var(--t-fg); border: 1px solid var(--t-line); border-radius: 10px;
  box-shadow: 0 8px 28px rgb(0 0 0 / .22); font-size: 14px;
}
.tern-spell-item {
  display: block; width: 100%; min-height: 34px; padding: 6px 12px; border: 0; border-radius: 6px;
  background: transparent; color: inherit; font: inherit; text-align: left; cursor: pointer;
}
.tern-spell-item.is-suggestion { font-weight: 600; }
.tern-spell-item:hover, .tern-spell-item:focus-visible { background: var(--t-hover); outline: none; }
.tern-spell-item:focus-visible { box-shadow: inset 0 0 0 2px color-mix(in srgb, var(--t-accent) 45%, transparent); }
.tern-spell-note { margin: 0; padding: 8px 12px; color: var(--t-muted); font-size: 13px; }
@media (max-width: 520px) {
  /* The footer's tools share a phone's width: the choice shrinks to its word. */
  .tern-spell-language { max-width: 68px; padding: 0; font-size: 12px; }
}
.tern-spell-separator { height: 1px; margin: 4px 6px; background: var(--t-line); }
`;
