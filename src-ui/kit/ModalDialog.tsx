/**
 * A modal dialog on the native `<dialog>` (DESIGN §9 kit): `showModal` makes the rest of
 * the page inert (Tab stays inside, screen readers read only the dialog), Escape cancels,
 * and the focus goes back where it was when the dialog closes. `busy` holds it open while
 * a command it started is on its way (Escape and the close button do nothing then).
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from './icons';
import { useT } from './i18n';
import { useModalDialog } from './use-modal-dialog';
import { FieldError } from './FieldError';

export interface ModalDialogProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly className?: string;
  /** A command is running: the dialog stays until it answers. */
  readonly busy?: boolean;
  /** A click on the backdrop (outside the dialog's box) closes it too (a dialog with nothing to lose). */
  readonly closeOnBackdrop?: boolean;
  /** Keys the dialog handles itself before Escape (the shortcuts dialog's `?`). */
  readonly onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
}

export function ModalDialog({ title, onClose, children, className, busy = false, closeOnBackdrop = false, onKeyDown }: ModalDialogProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const busyRef = useRef(busy);
  busyRef.current = busy;
  // The first field (or button) takes the focus; `autoFocus` marks a preferred one; with none, the close button.
  useModalDialog(
    ref,
    (dialog) =>
      dialog.querySelector<HTMLElement>('[autofocus], [data-autofocus]') ??
      dialog.querySelector<HTMLElement>('input, select, button:not(.modal-dialog-close)') ??
      dialog.querySelector<HTMLElement>('.modal-dialog-close'),
  );
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
      onClick={(event) => {
        // The backdrop is the dialog element itself, clicked outside its box.
        if (!closeOnBackdrop || event.target !== event.currentTarget) return;
        const box = event.currentTarget.getBoundingClientRect();
        const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
        if (!inside) cancel();
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (event.defaultPrevented) return;
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
        <button type="button" className="icon-button modal-dialog-close" aria-label={t('common.close')} disabled={busy} onClick={cancel}>
          <Icon name="close" size={18} />
        </button>
      </div>
      {children}
    </dialog>
  );
}

/** The end of a confirmation (delete, empty): its refusal if any, Cancel, and the red button that does it. */
export function ConfirmFooter(props: { error: string | null; busy: boolean; confirmLabel: string; onCancel: () => void; onConfirm: () => void }) {
  const t = useT();
  return (
    <>
      <FieldError>{props.error}</FieldError>
      <div className="modal-dialog-actions">
        <button type="button" className="button button-secondary" disabled={props.busy} onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button-danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </>
  );
}
