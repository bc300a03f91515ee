/**
 * A native `<dialog>` shown modal for as long as the component lives: `showModal` makes the
 * rest of the page inert (Tab stays inside, screen readers read only the dialog) and puts it
 * in the top layer; on leaving it closes and the focus goes back where it was. The element
 * to focus first is the caller's choice. Used by ModalDialog and the attachment viewer.
 */
import { useEffect, type RefObject } from 'react';

export function useModalDialog(ref: RefObject<HTMLDialogElement | null>, initialFocus: (dialog: HTMLDialogElement) => HTMLElement | null | undefined): void {
  useEffect(() => {
    const dialog = ref.current;
    const returnTo = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) {
      // happy-dom and old engines may lack showModal: open it as a plain dialog then.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    if (dialog) initialFocus(dialog)?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      if (returnTo?.isConnected) returnTo.focus();
    };
    // Once: the dialog opens with the component and closes with it.
  }, []);
}
