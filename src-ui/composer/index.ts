/**
 * The composer, loaded lazily by the shell:
 *   const Composer = lazy(() => import('../composer'));
 * Default export: the component. The pure builders of its `initial` prop live in
 * compose-initial.ts, which the shell may import on its own (it has no React in it).
 */
export { Composer as default, Composer, DEFAULT_AUTOSAVE_DELAY_MS, DEFAULT_UNDO_DELAY_MS, type ComposerAccount, type ComposerProps } from './Composer';
export {
  composeFromMailto,
  composeFromMessage,
  composeNew,
  type ComposeMode,
  type ComposerInitial,
  type PendingAttachment,
  type UploadedAttachment,
} from './compose-initial';
