/**
 * A menu button (WAI-ARIA menu button pattern): the button opens a `menu`; arrow keys,
 * Home and End move between items, Enter or Space picks one, Escape closes and gives the
 * focus back to the button; typed letters move to the item they start (type-ahead.ts). Used
 * by the settings dropdown, the account menu, "Move to" and the folder menus.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Icon, type IconName } from './icons';
import { NO_TYPE_AHEAD, typeAhead } from './type-ahead';

export interface MenuItem {
  readonly id: string;
  readonly label: string;
  readonly onSelect: () => void;
  readonly icon?: IconName;
  /** A second line under the label. */
  readonly description?: string;
  /** Radio items (one of a group is checked) carry `checked`. */
  readonly checked?: boolean;
  readonly disabled?: boolean;
  /** Indentation steps (nested folders). */
  readonly indent?: number;
  /** A check box item (a label given or not): `menuitemcheckbox`, checked when true. */
  readonly toggled?: boolean;
  /** A colour dot before the label (a label's colour), as a CSS colour. */
  readonly swatch?: string;
}

export type MenuEntry =
  | ({ readonly kind: 'item' } & MenuItem)
  | { readonly kind: 'group'; readonly id: string; readonly label: string; readonly items: readonly MenuItem[] }
  | { readonly kind: 'separator'; readonly id: string };

export interface MenuButtonProps {
  /** The button's accessible name. */
  readonly label: string;
  /** What the button shows. */
  readonly children: ReactNode;
  readonly entries: readonly MenuEntry[];
  readonly className?: string;
  readonly menuClassName?: string;
  readonly title?: string;
  readonly disabled?: boolean;
  /** Which edge of the button the menu lines up with. */
  readonly align?: 'start' | 'end';
  /** Opens the menu from outside (a keyboard shortcut); bump the number to open it again. */
  readonly openSignal?: number;
  /** Content above the items (e.g. the account's name). */
  readonly header?: ReactNode;
  /** Told when the menu opens or closes (however it does). */
  readonly onOpenChange?: (open: boolean) => void;
  /**
   * Where the focus goes when a menu `openSignal` opened closes (Escape, a pick): back where
   * the shortcut was pressed rather than to this button, which the person never went to.
   */
  readonly returnFocusAfterSignal?: () => void;
  /** -1 keeps the button out of the Tab order (a row's menu inside a roving tree, opened by its own keys). */
  readonly tabIndex?: number;
}

function MenuItemView({ item, role: groupRole, onPick }: { item: MenuItem; role: 'menuitem' | 'menuitemradio'; onPick: (item: MenuItem) => void }) {
  const role = item.toggled !== undefined ? 'menuitemcheckbox' : groupRole;
  return (
    <button
      type="button"
      role={role}
      className="menu-item"
      tabIndex={-1}
      aria-checked={role === 'menuitemradio' ? Boolean(item.checked) : role === 'menuitemcheckbox' ? Boolean(item.toggled) : undefined}
      aria-disabled={item.disabled || undefined}
      data-menu-item=""
      style={item.indent ? { paddingInlineStart: `${12 + item.indent * 14}px` } : undefined}
      onClick={() => onPick(item)}
    >
      {item.icon && <Icon name={item.icon} size={16} className="menu-item-icon" />}
      {item.swatch && <span className="menu-item-swatch" aria-hidden="true" style={{ background: item.swatch }} />}
      <span className="menu-item-text">
        <span className="menu-item-label">{item.label}</span>
        {item.description && <span className="menu-item-description">{item.description}</span>}
      </span>
      {role === 'menuitemradio' && <span className="menu-item-check">{item.checked && <Icon name="check" size={16} />}</span>}
      {role === 'menuitemcheckbox' && <span className="menu-item-check">{item.toggled && <Icon name="check" size={16} />}</span>}
    </button>
  );
}

export function MenuButton(props: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);

  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[data-menu-item]:not([aria-disabled="true"])') ?? [])];
  const focusItem = (index: number) => {
    const all = items();
    if (all.length === 0) return;
    all[(index + all.length) % all.length]?.focus();
  };
  /** The letters typed into the open menu lately (type-ahead). */
  const typed = useRef(NO_TYPE_AHEAD);
  /** Whether the open menu came from `openSignal` (a shortcut) rather than the button. */
  const bySignal = useRef(false);
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (!returnFocus) return;
    if (bySignal.current && props.returnFocusAfterSignal) props.returnFocusAfterSignal();
    else buttonRef.current?.focus();
  };

  const onOpenChange = useRef(props.onOpenChange);
  onOpenChange.current = props.onOpenChange;
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current !== open) onOpenChange.current?.(open);
    wasOpen.current = open;
  }, [open]);

  // A shortcut opens only what a click could: `v` with nothing to move used to open an
  // empty "Move to" menu over a disabled button, which no key could close.
  useEffect(() => {
    if (props.openSignal && !props.disabled) {
      bySignal.current = true;
      setOpen(true);
    }
    // Only a new signal opens the menu; `disabled` is read at that moment.
  }, [props.openSignal]);
  // The button turning disabled (the selection emptied) takes its menu away with it.
  useEffect(() => {
    if (props.disabled) setOpen(false);
  }, [props.disabled]);

  // On opening, focus the checked item or the first one; with no item to focus, the menu
  // itself, so Escape (handled on the menu) still closes it.
  useEffect(() => {
    if (!open) return;
    typed.current = NO_TYPE_AHEAD;
    const all = items();
    const checked = all.findIndex((item) => item.getAttribute('aria-checked') === 'true');
    if (all.length > 0) focusItem(checked >= 0 ? checked : 0);
    else menuRef.current?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onPick = (item: MenuItem) => {
    if (item.disabled) return;
    close(true);
    item.onSelect();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const current = all.indexOf(document.activeElement as HTMLElement);
    switch (event.key) {
      case 'ArrowDown':
        focusItem(current + 1);
        break;
      case 'ArrowUp':
        focusItem(current - 1);
        break;
      case 'Home':
        focusItem(0);
        break;
      case 'End':
        focusItem(all.length - 1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        close(false);
        return; // let the focus move on
      default:
        // Type-ahead: the item the typed letters start (a prefix, or the next with a repeated letter).
        if (event.key.length === 1 && /\S/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
          const labels = all.map((item) => item.querySelector('.menu-item-label')?.textContent ?? item.textContent ?? '');
          const next = typeAhead({ state: typed.current, key: event.key, now: event.timeStamp, labels, current });
          typed.current = next.state;
          if (next.index >= 0) all[next.index]?.focus();
          break;
        }
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      bySignal.current = false;
      setOpen(true);
    }
  };

  return (
    <div className="menu-wrapper" ref={wrapperRef}>
      <button
        ref={buttonRef}
        type="button"
        className={props.className ?? 'icon-button'}
        aria-label={props.label}
        title={props.title ?? props.label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={props.disabled}
        tabIndex={props.tabIndex}
        onClick={() => {
          bySignal.current = false;
          setOpen((value) => !value);
        }}
        onKeyDown={onButtonKeyDown}
      >
        {props.children}
      </button>
      {open && (
        <div className={`menu menu-${props.align ?? 'end'} ${props.menuClassName ?? ''}`}>
          {props.header}
          <div id={menuId} ref={menuRef} role="menu" aria-label={props.label} className="menu-items" tabIndex={-1} onKeyDown={onMenuKeyDown}>
          {props.entries.map((entry) => {
            switch (entry.kind) {
              case 'separator':
                return <div key={entry.id} role="separator" className="menu-separator" />;
              case 'group':
                return (
                  <div key={entry.id} role="group" aria-label={entry.label} className="menu-group">
                    <div className="menu-group-label" aria-hidden="true">
                      {entry.label}
                    </div>
                    {entry.items.map((item) => (
                      <MenuItemView key={item.id} item={item} role="menuitemradio" onPick={onPick} />
                    ))}
                  </div>
                );
              case 'item':
                return <MenuItemView key={entry.id} item={entry} role="menuitem" onPick={onPick} />;
            }
          })}
          </div>
        </div>
      )}
    </div>
  );
}
