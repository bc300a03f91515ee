/**
 * Toasts: the bridge's own short messages (a command's failure, a confirmation), written to
 * toastsAtom and taken away after a while.
 */
import { toastsAtom, type Toast } from '../atoms';
import type { FeedContext } from './feed-context';

/** How long a toast stays. */
export const TOAST_MS = 6_000;

/** Failures shown at once at most; the oldest goes first. */
export const MAX_ERROR_TOASTS = 2;

/**
 * The toasts once `added` is shown. Confirmations share one place (Gmail's): a new one
 * replaces the one before ("Action undone." after "Conversation archived.", never a pile of
 * them). Failures stack, at most MAX_ERROR_TOASTS, so a burst of them cannot fill the screen.
 */
export function withToast(toasts: readonly Toast[], added: Toast): readonly Toast[] {
  if (added.tone !== 'error') return [...toasts.filter((toast) => toast.tone === 'error'), added];
  const errors = toasts.filter((toast) => toast.tone === 'error').slice(-(MAX_ERROR_TOASTS - 1));
  return [...toasts.filter((toast) => toast.tone !== 'error'), ...errors, added];
}

export interface ToastFeed {
  /** Shows a toast; answers its id (to dismiss it early). */
  toast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
}

export function createToastFeed({ store, later }: FeedContext): ToastFeed {
  let nextToastId = 1;
  const dismissToast = (id: number) => store.set(toastsAtom, (toasts) => toasts.filter((toast) => toast.id !== id));
  const toast = (value: Omit<Toast, 'id'>) => {
    const id = nextToastId++;
    store.set(toastsAtom, (toasts) => withToast(toasts, { ...value, id }));
    // An error with a button (Reload) stays until used or dismissed; the rest go on their own,
    // those with something to read or do (a failure, Undo) later.
    if (value.tone !== 'error' || !value.action) later(value.tone === 'error' || value.action ? TOAST_MS * 1.5 : TOAST_MS, () => dismissToast(id));
    return id;
  };
  return { toast, dismissToast };
}
