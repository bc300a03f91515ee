/**
 * A modal dialog on the native `<dialog>` (DESIGN §9 kit): `showModal` makes the rest of
 * the page inert (Tab stays inside, screen readers read only the dialog), Escape cancels,
 * and the focus goes back where it was when the dialog closes. `busy` holds it open while
 * a command it started is on its way (Escape and the close button do nothing then).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Icon } from './icons';


export interface ModalDialogProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly className?: string;
  /** A command is running: the dialog stays until it answers. */
  readonly busy?: boolean;
}

export function ModalDialog({ title, onClose, children, className, busy = false }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const busyRef = useRef(busy);
  busyRef.current = busy;
  useEffect(() => {
    const dialog = ref.current;
    const returnTo = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) {
      // happy-dom and old engines may lack showModal: open it as a plain dialog then.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    // The first field (or button) takes the focus; `autoFocus` marks a preferred one.
    (dialog?.querySelector<HTMLElement>('[autofocus], [data-autofocus]') ?? dialog?.querySelector<HTMLElement>('input, select, button:not(.modal-dialog-close)'))?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      if (returnTo?.isConnected) returnTo.focus();
    };
  }, []);
  const cancel = () => {
    if (!busyRef.current) onClose();
  };
  return (
    // role=dialog spelled out: the mailbox's shortcuts leave every key inside [role="dialog"] to it.
    <dialog
      ref={ref}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      className={`dialog modal-dialog ${className ?? ''}`}
      onCancel={(event) => {
        event.preventDefault();
        cancel();
      }}
      onKeyDown={(event) => {
        // Escape cancels here too (engines without the dialog's own cancel event).
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          cancel();
        }
      }}
    >
      <div className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button modal-dialog-close" aria-label="Close" disabled={busy} onClick={cancel}>
          <Icon name="close" size={18} />
        </button>
      </div>
      {children}
    </dialog>
  );
}

/** The end of a confirmation (delete, empty): its refusal if any, Cancel, and the red button that does it. */
export function ConfirmFooter(props: { error: string | null; busy: boolean; confirmLabel: string; onCancel: () => void; onConfirm: () => void }) {
  return (
    <>
      {props.error && (
        <p className="field-error" role="alert">
          {props.error}
        </p>
      )}
      <div className="modal-dialog-actions">
        <button type="button" className="button button-secondary" disabled={props.busy} onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </>
  );
}
