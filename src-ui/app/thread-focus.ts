/**
 * Where the focus goes when the open thread closes or leaves the list, so it never falls
 * back to the page (a keyboard user would have to Tab through the sidebar again, a
 * screen reader would announce nothing):
 *
 * - Opening a thread in single thread view (it replaces the list): the conversation.
 * - Back / Esc / the pane's close button: the list gets the focus with the closed thread's
 *   row as its cursor (the listbox's active descendant), as Gmail returns to the row.
 * - Archive / delete / spam / move of the open thread: the next thread opens (the next
 *   older one, else the newer one: Gmail's auto-advance), the list cursor follows it, and
 *   the focus stays in the list if it was there, else goes to the conversation. With
 *   nothing left, the list gets the focus.
 *
 * The cursor moves with the thread opened here at once (MailboxView also keeps it on the
 * open thread however it was opened), so in split view the highlighted row is the one shown.
 */
import { useStore } from 'jotai';
import { useCallback, useEffect } from 'react';
import { cursorAtom, visibleListAtom } from '../state/atoms';
import { indexOfKey, rowAt, type HeldList } from '../state/thread-list/list-patch';

/** The thread to open when `removed` (which holds the open one) leave the list; null when none is left or loaded. */
export function nextOpenAfterRemoval(held: HeldList | null, openKey: string, removed: ReadonlySet<string>): string | null {
  const index = indexOfKey(held, openKey);
  if (!held || index < 0) return null;
  const pick = (from: number, step: number) => {
    for (let i = from; i >= 0 && i < held.total; i += step) {
      const row = rowAt(held, i);
      if (!row) return null; // not loaded: do not guess past a hole
      if (!removed.has(row.key)) return row.key;
    }
    return null;
  };
  return pick(index + 1, 1) ?? pick(index - 1, -1);
}

export type FocusTarget = 'list' | 'conversation' | 'keep';

/**
 * Where the focus goes once the open thread is replaced by `next` (null: closed). `focusedIn`
 * is where it was: the list, the conversation (its content is replaced), nowhere (the page),
 * or another control that stays (a toolbar button keeps it). The list is not there to take
 * it while a thread replaces it on screen (single thread view).
 */
export function focusAfterRemoval(params: { next: string | null; focusedIn: 'list' | 'conversation' | 'page' | 'other'; listHiddenWhileOpen: boolean }): FocusTarget {
  const { next, focusedIn, listHiddenWhileOpen } = params;
  if (focusedIn === 'other') return 'keep';
  if (next === null) return 'list';
  if (focusedIn === 'list' && !listHiddenWhileOpen) return 'list';
  return 'conversation';
}

const LIST_SELECTOR = '#thread-list';
const conversationSelector = (key: string) => `.reading-pane[data-thread-key="${CSS.escape(key)}"] .reading-pane-scroll`;

function focusedArea(): 'list' | 'conversation' | 'page' | 'other' {
  const active = document.activeElement;
  if (!active || active === document.body || active === document.documentElement) return 'page';
  if (active.closest(LIST_SELECTOR)) return 'list';
  if (active.closest('.reading-pane')) return 'conversation';
  return 'other';
}

/** Focuses what `find` returns once it is on screen (after the navigation renders), trying for a few frames. */
function focusWhenShown(find: () => HTMLElement | null, frames = 20): void {
  const attempt = (left: number) => {
    const element = find();
    if (element && !element.closest('[hidden]') && element.isConnected) {
      element.focus({ preventScroll: true });
      return;
    }
    if (left > 0) requestAnimationFrame(() => attempt(left - 1));
  };
  requestAnimationFrame(() => attempt(frames));
}

function focusTarget(target: FocusTarget, openKey: string | null): void {
  if (target === 'keep') return;
  if (target === 'list' || !openKey) focusWhenShown(() => document.querySelector<HTMLElement>(LIST_SELECTOR));
  else focusWhenShown(() => document.querySelector<HTMLElement>(conversationSelector(openKey)));
}

export interface OpenThreadFocus {
  /**
   * Closes the open thread and gives the list the focus on its row. `gone`: the thread
   * vanished on its own (its draft was sent): the focus moves only if it was in the pane
   * or nowhere, never away from what the person is using (the composer's Undo).
   */
  closeThread(reason?: 'gone'): void;
  /** The threads `keys` are about to leave the list: if the open one is among them, the next one opens. */
  leaving(keys: readonly string[]): void;
}

export function useOpenThreadFocus(params: { openKey: string | null; setOpenThread: (key: string | null) => void; listHiddenWhileOpen: boolean }): OpenThreadFocus {
  const { openKey, setOpenThread, listHiddenWhileOpen } = params;
  const store = useStore();

  const setCursor = useCallback(
    (key: string) => {
      const index = indexOfKey(store.get(visibleListAtom).held, key);
      if (index >= 0) store.set(cursorAtom, { key, index });
    },
    [store],
  );

  // Single thread view: opening a thread hides the list that had the focus; the conversation takes it.
  useEffect(() => {
    if (!openKey || !listHiddenWhileOpen) return;
    const area = focusedArea();
    if (area === 'page' || area === 'list') focusTarget('conversation', openKey);
  }, [openKey, listHiddenWhileOpen]);

  const closeThread = useCallback(
    (reason?: 'gone') => {
      if (!openKey) return;
      setCursor(openKey);
      const focusedIn = focusedArea();
      setOpenThread(null);
      if (reason !== 'gone' || focusedIn === 'page' || focusedIn === 'conversation') focusTarget('list', null);
    },
    [openKey, setCursor, setOpenThread],
  );

  const leaving = useCallback(
    (keys: readonly string[]) => {
      if (!openKey || !keys.includes(openKey)) return;
      const next = nextOpenAfterRemoval(store.get(visibleListAtom).held, openKey, new Set(keys));
      const target = focusAfterRemoval({ next, focusedIn: focusedArea(), listHiddenWhileOpen });
      if (next) setCursor(next);
      setOpenThread(next);
      focusTarget(target, next);
    },
    [openKey, store, setCursor, setOpenThread, listHiddenWhileOpen],
  );

  return { closeThread, leaving };
}
