/**
 * The misspelt words on screen, as one CSS Custom Highlight (`::highlight(tern-misspelt)`,
 * styled in spell.css): ranges over the editor's text, so the editor's DOM — and the HTML
 * that is sent — never holds a mark. Several composers may be open; each owns its ranges
 * and the highlight shows them all.
 */
export const MISSPELT_HIGHLIGHT = 'tern-misspelt';

const owners = new Map<object, readonly Range[]>();

/** Whether this browser draws highlights (Chromium 105+, Safari 17.2+, Firefox 140+). */
export const canHighlight = () => typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight === 'function';

/** Replaces the ranges `owner` marks (none: its marks go). */
export function showMisspelt(owner: object, ranges: readonly Range[]): void {
  if (ranges.length === 0) owners.delete(owner);
  else owners.set(owner, ranges);
  if (!canHighlight()) return;
  const all = [...owners.values()].flat();
  if (all.length === 0) CSS.highlights.delete(MISSPELT_HIGHLIGHT);
  else CSS.highlights.set(MISSPELT_HIGHLIGHT, new Highlight(...all));
}

/** The range of `owner`'s marks that holds a point of the text, if any. */
export function misspeltAt(owner: object, node: Node, offset: number): Range | null {
  for (const range of owners.get(owner) ?? []) {
    try {
      if (range.isPointInRange(node, offset)) return range;
    } catch {
      // a point in another document or a detached node: not in this range
    }
  }
  return null;
}
