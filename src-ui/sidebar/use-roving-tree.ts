/**
 * The sidebar's folder tree as one Tab stop (roving tabindex): the item of the mailbox
 * shown is the one Tab lands on; arrows move focus between items (roving-tree.ts) and the
 * focused item keeps the tab stop while focus stays in the tree. Items are elements with
 * `data-tree-key`, `data-tree-level` and, when they open and close, `aria-expanded`;
 * links and buttons keep their own Enter (and a button its Space), Space on a link opens it.
 */
import { useCallback, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { treeKeyMove, type TreeItemFacts } from './roving-tree';

const ITEM = '[data-tree-key]';

export interface RovingTree {
  /** The one item Tab lands on (tabIndex 0; the others -1). */
  readonly tabbableKey: string;
  /** Spread on the element holding the items. */
  readonly containerProps: {
    onKeyDown(event: KeyboardEvent<HTMLElement>): void;
    onFocus(event: FocusEvent<HTMLElement>): void;
    onBlur(event: FocusEvent<HTMLElement>): void;
  };
}

const keyOf = (element: Element | null): string | null => (element?.closest<HTMLElement>(ITEM)?.dataset.treeKey ?? null);

function factsOf(element: HTMLElement): TreeItemFacts {
  const expanded = element.getAttribute('aria-expanded');
  return { level: Number(element.dataset.treeLevel) || 1, expanded: expanded === null ? null : expanded === 'true' };
}

/**
 * `currentKey`: the item of the mailbox shown (or searched in); `visibleKeys`: the items on
 * screen now; `fallbackKey`: the tab stop when neither the focused nor the current item is
 * shown; `onToggle` opens or closes an item.
 */
export function useRovingTree(params: {
  currentKey: string | null;
  fallbackKey: string;
  visibleKeys: ReadonlySet<string>;
  onToggle: (key: string, expand: boolean) => void;
}): RovingTree {
  const { currentKey, fallbackKey, visibleKeys, onToggle } = params;
  // The item focused inside the tree, for as long as focus stays there and the mailbox does not change.
  const [focused, setFocused] = useState<{ key: string; during: string | null } | null>(null);
  const focusedKey = focused && focused.during === currentKey ? focused.key : null;
  const tabbable = [focusedKey, currentKey].find((key): key is string => key !== null && visibleKeys.has(key)) ?? fallbackKey;

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement;
      const item = target.closest<HTMLElement>(ITEM);
      if (!item || !event.currentTarget.contains(item)) return;
      if (event.key === ' ' && item.tagName === 'A') {
        // A link opens with Enter natively; the tree pattern opens with Space too.
        event.preventDefault();
        item.click();
        return;
      }
      const items = [...event.currentTarget.querySelectorAll<HTMLElement>(ITEM)];
      const move = treeKeyMove(items.map(factsOf), items.indexOf(item), event.key);
      if (!move) return;
      event.preventDefault();
      const to = items[move.index]!;
      const key = to.dataset.treeKey!;
      if (move.kind === 'focus') {
        setFocused({ key, during: currentKey });
        to.focus();
        to.scrollIntoView?.({ block: 'nearest' });
      } else {
        onToggle(key, move.kind === 'expand');
      }
    },
    [currentKey, onToggle],
  );

  const onFocus = useCallback(
    (event: FocusEvent<HTMLElement>) => {
      const key = keyOf(event.target);
      if (key) setFocused({ key, during: currentKey });
    },
    [currentKey],
  );

  // Leaving the tree gives the tab stop back to the mailbox shown.
  const onBlur = useCallback((event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget as Node | null;
    if (!next || !event.currentTarget.contains(next)) setFocused(null);
  }, []);

  return {
    tabbableKey: tabbable,
    containerProps: { onKeyDown, onFocus, onBlur },
  };
}
