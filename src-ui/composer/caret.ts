/**
 * Where the caret goes when the body editor takes the focus back (after Undo send): at
 * the end of what the person wrote — before a reply's quote or a forward's original,
 * which sit below it — else at the end of the body.
 */
const QUOTED = '.tern-quote, .tern-forward';

export function caretAtEndOfWriting(editor: HTMLElement): void {
  const selection = editor.ownerDocument.getSelection();
  if (!selection) return;
  const range = editor.ownerDocument.createRange();
  const quoted = Array.from(editor.children).find((child) => child.matches(QUOTED));
  const written = quoted?.previousElementSibling ?? null;
  if (quoted && written) range.selectNodeContents(written);
  else if (quoted) range.setStartBefore(quoted);
  else range.selectNodeContents(editor);
  range.collapse(quoted && !written ? true : false);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Which of the composer's fields had the focus (to give it back after Undo send). */
export type ComposerField = 'to' | 'subject' | 'body';

export function focusedField(form: HTMLElement | null, toInput: HTMLElement | null, subject: HTMLElement | null): ComposerField {
  const active = form?.ownerDocument.activeElement ?? null;
  if (active && active === toInput) return 'to';
  if (active && active === subject) return 'subject';
  return 'body';
}
