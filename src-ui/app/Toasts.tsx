/**
 * Notifications: command failures (the catalogue's sentence) and confirmations. They sit at
 * the bottom centre of the content area, never over the sidebar's controls and beside an
 * open composer or its Undo (app/toasts.css). The two live regions exist before any
 * toast does, so screen readers announce what is added to them: errors assertively,
 * confirmations politely. Each can be dismissed with its button or Escape; a move's
 * confirmation also carries Undo (its `z` key is a mailbox shortcut).
 */
import { useAtomValue } from 'jotai';
import { useRef, type KeyboardEvent } from 'react';
import { formatPhrase, type Message, type Phrase } from '../../shared/strings';
import { useLocale, useT } from '../kit/i18n';
import { useMailActions } from '../state/actions-context';
import { toastsAtom, type Toast } from '../state/atoms';
import { focusListOrConversation } from '../kit/focus-list';
import { Icon } from '../kit/icons';
import { SendNotices } from './SendNotices';

/**
 * A toast about to go with the focus inside it (its Undo or close button, pressed from the
 * keyboard) would drop the focus to the page: it goes to the thread list instead, where the
 * rows that came back are, or to the open conversation when the list is not shown.
 */
function keepFocusOnLeaving(toast: HTMLElement | null): void {
  if (toast?.contains(document.activeElement)) focusListOrConversation();
}

/** Undo (its `z` key is announced on the button). */
function isUndo(label: Phrase): boolean {
  return label === 'Undo' || (typeof label === 'object' && !Array.isArray(label) && (label as Message).id === 'common.undo');
}

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const t = useT();
  const locale = useLocale();
  const ref = useRef<HTMLDivElement>(null);
  const leave = (run: () => void) => {
    keepFocusOnLeaving(ref.current);
    run();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    // Only this toast: the Escape does not also close the composer or clear a search.
    event.preventDefault();
    event.stopPropagation();
    leave(() => onDismiss(toast.id));
  };
  const action = toast.action;
  return (
    <div ref={ref} className={`toast toast-${toast.tone}`} onKeyDown={onKeyDown}>
      <Icon name={toast.tone === 'error' ? 'spam' : 'check'} className="toast-icon" />
      <div className="toast-text">
        {toast.title && <strong className="toast-title">{formatPhrase(locale, toast.title)}</strong>}
        <span>{formatPhrase(locale, toast.message)}</span>
      </div>
      {toast.action && (
        // Undo after a move; `z` does the same while the toast is up (keyboard/shortcuts.ts).
        <button type="button" className="toast-action" aria-keyshortcuts={isUndo(toast.action.label) ? 'z' : undefined} onClick={() => action && leave(action.run)}>
          {formatPhrase(locale, toast.action.label)}
        </button>
      )}
      <button type="button" className="icon-button toast-close" aria-label={t('app.dismissNotification')} onClick={() => leave(() => onDismiss(toast.id))}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useAtomValue(toastsAtom);
  const actions = useMailActions();
  const t = useT();
  const errors = toasts.filter((toast) => toast.tone === 'error');
  const notes = toasts.filter((toast) => toast.tone !== 'error');
  return (
    <section className="toasts" aria-label={t('app.notifications')}>
      {/* Sends that went wrong (or may have): they stay until the person acts on them. */}
      <SendNotices />
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
