/**
 * The composer, loaded lazily by the shell:
 *   const Composer = lazy(() => import('../composer'));
 * Default export: the component. The pure builders of its `initial` prop live in
 * compose-initial.ts, which the shell may import on its own (it has no React in it).
 */
export { Composer as default, Composer, DEFAULT_AUTOSAVE_DELAY_MS, DEFAULT_UNDO_DELAY_MS, type ComposerAccount, type ComposerProps } from './Composer';
// Settings → Signatures writes a signature in the composer's own editor.
export { RichTextEditor, type RichTextEditorHandle } from './RichTextEditor';
export { ComposerStyle } from './ComposerStyle';
export { prepareSignatureHtml } from './signature-html';
export {
  composeFromMailto,
  composeFromMessage,
  composeNew,
  type ComposeMode,
  type ComposerInitial,
  type PendingAttachment,
  type UploadedAttachment,
} from './compose-initial';
