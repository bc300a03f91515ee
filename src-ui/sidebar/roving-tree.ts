/**
 * Keyboard moves of the sidebar's folder tree (WAI-ARIA APG tree view keys, applied to the
 * links and account buttons the sidebar already has): the tree is one Tab stop, and inside
 * it Up/Down go to the previous/next visible item, Right opens a closed item or goes to its
 * first child, Left closes an open item or goes to its parent, Home/End to the first/last
 * item. No wrap-around, as in the pattern. Pure, so the rules are tested without a DOM.
 */

/** What a move needs to know of one visible item, in screen order. */
export interface TreeItemFacts {
  /** 1 for the top level (the unified inbox, each account), deeper for folders. */
  readonly level: number;
  /** Open or closed for items with children; null for a leaf. */
  readonly expanded: boolean | null;
}

export type TreeMove =
  | { readonly kind: 'focus'; readonly index: number }
  | { readonly kind: 'expand'; readonly index: number }
  | { readonly kind: 'collapse'; readonly index: number };

/** The move a key makes from item `index`, or null when the key is not the tree's (or goes nowhere). */
export function treeKeyMove(items: readonly TreeItemFacts[], index: number, key: string): TreeMove | null {
  const item = items[index];
  if (!item) return items.length > 0 && (key === 'Home' || key === 'End') ? { kind: 'focus', index: key === 'Home' ? 0 : items.length - 1 } : null;
  const focus = (to: number): TreeMove | null => (to >= 0 && to < items.length && to !== index ? { kind: 'focus', index: to } : null);
  switch (key) {
    case 'ArrowDown':
      return focus(index + 1);
    case 'ArrowUp':
      return focus(index - 1);
    case 'Home':
      return focus(0);
    case 'End':
      return focus(items.length - 1);
    case 'ArrowRight':
      if (item.expanded === false) return { kind: 'expand', index };
      // Open: the first child is the next item when it is deeper.
      if (item.expanded === true && (items[index + 1]?.level ?? 0) > item.level) return focus(index + 1);
      return null;
    case 'ArrowLeft': {
      if (item.expanded === true) return { kind: 'collapse', index };
      for (let i = index - 1; i >= 0; i--) if (items[i]!.level < item.level) return focus(i);
      return null;
    }
    default:
      return null;
  }
}
