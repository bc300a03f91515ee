/**
 * The suggestion menu of a misspelt word (right-click on it, or Ctrl+. with the caret in
 * it): the worker's suggestions, then "Add to dictionary". A WAI-ARIA menu: the first item
 * takes the focus, arrows, Home and End move, Enter or a click picks, Escape or Tab closes
 * and gives the focus back to the body. Drawn at the pointer (or under the word), kept on
 * screen at a phone's width.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../kit/i18n';

export interface SpellMenuProps {
  readonly word: string;
  /** null while the worker looks. */
  readonly suggestions: readonly string[] | null;
  readonly at: { readonly x: number; readonly y: number };
  readonly onPick: (suggestion: string) => void;
  /** Absent where the word cannot be added (no preferences to keep it). */
  readonly onAdd?: () => void;
  readonly onClose: () => void;
}

export function SpellMenu(props: SpellMenuProps) {
  const t = useT();
  const menu = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState({ left: props.at.x, top: props.at.y });

  // On screen: flipped above the point or moved left when it would leave the window.
  useLayoutEffect(() => {
    const box = menu.current?.getBoundingClientRect();
    if (!box) return;
    const left = Math.max(8, Math.min(props.at.x, window.innerWidth - box.width - 8));
    const top = props.at.y + box.height + 8 > window.innerHeight ? Math.max(8, props.at.y - box.height - 24) : props.at.y;
    setPosition({ left, top });
  }, [props.at.x, props.at.y, props.suggestions]);

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? []);
  useEffect(() => {
    items()[0]?.focus();
  }, [props.suggestions]);

  // A press outside closes it (the body keeps its caret where the press put it), and so does a resize.
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useEffect(() => {
    const outside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) onClose.current();
    };
    // The word moves when the window changes size: the menu goes, as the browser's own does.
    const resized = () => onClose.current();
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('resize', resized);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('resize', resized);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    const move = (next: number) => {
      event.preventDefault();
      all[(next + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      // Not the composer's Escape (which would close the whole message).
      event.preventDefault();
      event.stopPropagation();
      props.onClose();
    }
  };

  return (
    <div ref={menu} className="tern-spell-menu" role="menu" aria-label={t('spelling.suggestions', { word: props.word })} style={{ left: position.left, top: position.top }} onKeyDown={onKeyDown}>
      {props.suggestions === null ? (
        <p className="tern-spell-note" role="status">
          {t('spelling.loading')}
        </p>
      ) : props.suggestions.length === 0 ? (
        <p className="tern-spell-note">{t('spelling.noSuggestions')}</p>
      ) : (
        props.suggestions.map((suggestion) => (
          <button key={suggestion} type="button" role="menuitem" tabIndex={-1} className="tern-spell-item is-suggestion" onClick={() => props.onPick(suggestion)}>
            {suggestion}
          </button>
        ))
      )}
      {props.onAdd && (
        <>
          <div role="separator" className="tern-spell-separator" />
          <button type="button" role="menuitem" tabIndex={-1} className="tern-spell-item" onClick={props.onAdd}>
            {t('spelling.addToDictionary')}
          </button>
        </>
      )}
    </div>
  );
}
