/**
 * Notifications: command failures (the catalogue's sentence) and confirmations. They sit at
 * the bottom centre of the content area, never over the sidebar's controls and beside an
 * open composer or its Undo (styles.css, "Toasts"). The two live regions exist before any
 * toast does, so screen readers announce what is added to them: errors assertively,
 * confirmations politely. Each can be dismissed with its button or Escape; a move's
 * confirmation also carries Undo (its `z` key is a mailbox shortcut).
 */
import { useAtomValue } from 'jotai';
import type { KeyboardEvent } from 'react';
import { useMailActions } from '../state/actions-context';
import { toastsAtom, type Toast } from '../state/atoms';
import { Icon } from './icons';

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    // Only this toast: the Escape does not also close the composer or clear a search.
    event.preventDefault();
    event.stopPropagation();
    onDismiss(toast.id);
  };
  return (
    <div className={`toast toast-${toast.tone}`} onKeyDown={onKeyDown}>
      <Icon name={toast.tone === 'error' ? 'spam' : 'check'} className="toast-icon" />
      <div className="toast-text">
        {toast.title && <strong className="toast-title">{toast.title}</strong>}
        <span>{toast.message}</span>
      </div>
      {toast.action && (
        // Undo after a move; `z` does the same while the toast is up (keyboard/shortcuts.ts).
        <button type="button" className="toast-action" aria-keyshortcuts={toast.action.label === 'Undo' ? 'z' : undefined} onClick={toast.action.run}>
          {toast.action.label}
        </button>
      )}
      <button type="button" className="icon-button toast-close" aria-label="Dismiss notification" onClick={() => onDismiss(toast.id)}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useAtomValue(toastsAtom);
  const actions = useMailActions();
  const errors = toasts.filter((toast) => toast.tone === 'error');
  const notes = toasts.filter((toast) => toast.tone !== 'error');
  return (
    <section className="toasts" aria-label="Notifications">
      <div role="alert" className="toast-stack">
        {errors.map((toast) => (
          <ToastView key={toast.id} toast={toast} onDismiss={actions.dismissToast} />
        ))}
      </div>
      <div role="status" className="toast-stack">
        {notes.map((toast) => (
          <ToastView key={toast.id} toast={toast} onDismiss={actions.dismissToast} />
        ))}
      </div>
    </section>
  );
}
