/**
 * The reading view, loaded lazily by the shell:
 *   const ConversationView = lazy(() => import('../conversation'));
 * Default export: the component; named exports: its props type and the pure helpers the
 * shell may want without rendering (e.g. to open a composer from a keyboard shortcut).
 */
export { ConversationView as default, ConversationView, type ConversationViewProps } from './ConversationView';
export { composeFromMessage, composeFromMailto, composeNew, type ComposerInitial } from '../composer/compose-initial';
