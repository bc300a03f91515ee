/** Listens for the mail shortcuts on the document and runs the mailbox's handler for each. */
import { useEffect, useRef } from 'react';
import { isTypingTarget, shortcutFor, type ShortcutAction } from './shortcuts';

export type ShortcutHandlers = Partial<Record<ShortcutAction, () => void>>;

/** Elements whose own keys (Enter, Space, letters) must not trigger shortcuts. */
const OWN_KEYS = 'button, a[href], summary, [role="menu"], [role="menuitem"], [role="dialog"], select';

export function useMailboxShortcuts(handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      const action = shortcutFor(event);
      if (!action) return;
      const target = event.target as Element | null;
      if (typeof target?.closest === 'function' && target.closest(OWN_KEYS)) {
        // A focused button keeps Enter and Space; inside menus and dialogs every key is theirs.
        if (event.key === 'Enter' || event.key === ' ' || target.closest('[role="menu"], [role="dialog"], select')) return;
      }
      const handler = latest.current[action];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
