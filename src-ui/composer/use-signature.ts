/**
 * The identity's signature in the composer (signature-html.ts): put into a new composer's
 * opening body (a reopened draft has its own), and swapped when the From changes, unless
 * the person edited it. Remembers the block as the editor holds it, to tell an edit.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { ComposerInitial } from './compose-initial';
import type { ComposerAccount } from './composer-props';
import { prepareEditorHtml } from './editor-html';
import type { RichTextEditorHandle } from './RichTextEditor';
import { SIGNATURE_CLASS, swapSignature, wantsSignature, withSignature } from './signature-html';

/** The signature a message of this mode gets from this From ('' for none). */
const signatureFor = (mode: ComposerInitial['mode'], choice: ComposerAccount | undefined) =>
  choice && wantsSignature(mode, choice.signatureOnReplies ?? true) ? (choice.signatureHtml ?? '') : '';

export function useSignature(params: { editor: RefObject<RichTextEditorHandle | null>; initial: ComposerInitial; choice: ComposerAccount | undefined }) {
  const { editor, initial } = params;
  const [openingHtml] = useState(() => (initial.draftId ? initial.html : withSignature(initial.html, signatureFor(initial.mode, params.choice))));
  /** The block as the editor holds it (null: none, or removed). */
  const inserted = useRef<string | null>(null);
  useEffect(() => {
    inserted.current = editor.current?.root()?.querySelector(`.${SIGNATURE_CLASS}`)?.outerHTML ?? null;
  }, []);
  return {
    openingHtml,
    /** The From is now `next`: its signature replaces the one put in (when untouched). */
    swap(next: ComposerAccount) {
      const root = editor.current?.root();
      if (root) inserted.current = swapSignature(root, inserted.current, signatureFor(initial.mode, next), (html) => prepareEditorHtml(html));
    },
  };
}
