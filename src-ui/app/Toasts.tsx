/**
 * Notifications in the corner: command failures (the catalogue's sentence) and
 * confirmations. The two live regions exist before any toast does, so screen readers
 * announce what is added to them: errors assertively, confirmations politely.
 */
import { useAtomValue } from 'jotai';
import { useMailActions } from '../state/actions-context';
import { toastsAtom, type Toast } from '../state/atoms';
import { Icon } from './icons';

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  return (
    <div className={`toast toast-${toast.tone}`}>
      <Icon name={toast.tone === 'error' ? 'spam' : 'check'} className="toast-icon" />
      <div className="toast-text">
        {toast.title && <strong className="toast-title">{toast.title}</strong>}
        <span>{toast.message}</span>
      </div>
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
