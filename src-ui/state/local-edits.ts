/**
 * Keeps this tab's optimistic row edits (state/thread-list/local-edits.ts) for as long as the
 * worker's list does not show them itself: an edit goes once the engine has accepted
 * its command and a list from the worker shows the change, at once when the engine
 * refused the command, when the list shown is replaced, or after SETTLE_TIMEOUT_MS
 * whatever happened (then the worker's list is the truth, as it always is in the end).
 */
import type { createStore } from 'jotai';
import { editShown, NO_EDITS, type LocalEdits, type RowEdit } from './thread-list/local-edits';
import { localEditsAtom, threadListAtom } from './atoms';

type Store = ReturnType<typeof createStore>;

/** How long an accepted command's edit may wait for the worker's list to show it. */
export const SETTLE_TIMEOUT_MS = 4_000;

export interface LocalEditsKeeper {
  /**
   * Shows the edit on these rows now (a flag edit adds to a row's earlier one); returns
   * the function to call once the engine has answered.
   */
  begin(keys: readonly string[], edit: RowEdit): (accepted: boolean) => void;
  /** Stops following the list (the app unmounts). */
  stop(): void;
}

export function createLocalEditsKeeper(store: Store, timeoutMs = SETTLE_TIMEOUT_MS): LocalEditsKeeper {
  /** Edits whose command the engine accepted: the list may now show them by itself. */
  const settled = new Set<RowEdit>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let subscriptionId = store.get(threadListAtom).held?.subscriptionId ?? null;

  const drop = (gone: (key: string, edit: RowEdit) => boolean) => {
    const edits = store.get(localEditsAtom);
    let next: Map<string, RowEdit> | null = null;
    for (const [key, edit] of edits) {
      if (!gone(key, edit)) continue;
      next ??= new Map(edits);
      next.delete(key);
      settled.delete(edit);
    }
    if (next) store.set(localEditsAtom, next.size === 0 ? NO_EDITS : next);
  };

  const dropShown = () => {
    const held = store.get(threadListAtom).held;
    drop((key, edit) => settled.has(edit) && editShown(held, key, edit));
  };

  const unsubscribe = store.sub(threadListAtom, () => {
    const held = store.get(threadListAtom).held;
    const id = held?.subscriptionId ?? null;
    if (id !== subscriptionId) {
      // Another list (or none): its rows are not the ones the edits were made on.
      subscriptionId = id;
      settled.clear();
      if (store.get(localEditsAtom).size > 0) store.set(localEditsAtom, NO_EDITS);
      return;
    }
    dropShown();
  });

  return {
    begin(keys, edit) {
      if (keys.length === 0) return () => undefined;
      const edits = store.get(localEditsAtom);
      const next = new Map(edits);
      /** This command's edit objects: one per row, as a second flag change on a row adds to the first (read, then starred). */
      const mine = new Set<RowEdit>();
      for (const key of keys) {
        const earlier = edits.get(key);
        const merged: RowEdit = edit.kind === 'flags' && earlier?.kind === 'flags' ? { ...earlier, ...edit } : { ...edit };
        next.set(key, merged);
        mine.add(merged);
      }
      store.set(localEditsAtom, next);
      const isMine = (_key: string, current: RowEdit) => mine.has(current);
      return (accepted) => {
        if (!accepted) return drop(isMine);
        for (const current of mine) settled.add(current);
        dropShown();
        const timer = setTimeout(() => {
          timers.delete(timer);
          drop(isMine);
        }, timeoutMs);
        timers.add(timer);
      };
    },
    stop() {
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
