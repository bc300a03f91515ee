/**
 * What the composer's save indicator says, from the truth only: "Saved" once the gateway
 * confirmed this version (the engine's status for the save), "Saved on this device only"
 * while the engine holds it and the gateway cannot be reached or keeps failing (the reason
 * goes along), "Conflict" when another tab or device changed or sent the draft. The engine
 * recording a save is not "Saved": that used to show while every save to the gateway failed.
 */
import type { CommandStatus } from '../../shared/worker-mail-api';
import type { Translate } from '../kit/i18n';
import { CONFLICT_ERRORS, type DraftConflict, type SaveStatus } from './draft-autosave';

export type SaveIndicator =
  | { readonly kind: 'none' }
  | { readonly kind: 'saving' }
  | { readonly kind: 'saved' }
  | { readonly kind: 'local'; readonly reason: string }
  | { readonly kind: 'conflict'; readonly conflict: DraftConflict }
  | { readonly kind: 'failed'; readonly reason: string };

/** The words shown, and the accessible text (with the reason). */
export function indicatorText(indicator: SaveIndicator, t: Translate): { readonly text: string; readonly full: string } {
  switch (indicator.kind) {
    case 'none':
      return { text: '', full: '' };
    case 'saving':
      return { text: t('composer.indicatorSaving'), full: t('composer.indicatorSaving') };
    case 'saved':
      return { text: t('composer.indicatorSaved'), full: t('composer.indicatorSaved') };
    case 'local':
      return { text: t('composer.indicatorLocal'), full: t('composer.indicatorLocalFull', { reason: indicator.reason }) };
    case 'conflict':
      return {
        text: t('composer.indicatorConflict'),
        full: t(indicator.conflict.reason === 'sent' ? 'composer.indicatorConflictSent' : 'composer.indicatorConflictChanged'),
      };
    case 'failed':
      return { text: t('composer.indicatorNotSaved'), full: t('composer.draftNotSaved', { reason: indicator.reason }) };
  }
}

/** A conflict the engine reported for the composer's save after recording it (the gateway's 409). */
export function conflictOf(status: CommandStatus | undefined, commandId: string | undefined): DraftConflict | null {
  if (!status || commandId === undefined || status.commandId !== commandId || status.kind !== 'saveDraft' || status.status !== 'failed') return null;
  if (!status.error || !CONFLICT_ERRORS.has(status.error.name)) return null;
  return { reason: status.error.name === 'DraftAlreadySent' ? 'sent' : 'edited', ...(status.keptAs ? { keptAs: status.keptAs } : {}) };
}

/**
 * `local`: what the composer's autosave knows (the engine recorded the save, or refused it);
 * `engine`: the newest status the engine published for this draft (any tab's).
 */
export function saveIndicatorOf(local: SaveStatus, engine: CommandStatus | undefined, opened: boolean): SaveIndicator {
  switch (local.status) {
    case 'idle':
      // A draft opened from Drafts (or restored) is what the gateway or the engine holds.
      return opened ? { kind: 'saved' } : { kind: 'none' };
    case 'saving':
      return { kind: 'saving' };
    case 'conflict':
      return { kind: 'conflict', conflict: local.conflict };
    case 'failed':
      return { kind: 'failed', reason: local.message };
    case 'saved': {
      // An engine without save receipts: its word is all there is.
      if (local.commandId === undefined) return { kind: 'saved' };
      if (!engine || engine.kind !== 'saveDraft' || engine.commandId !== local.commandId) return { kind: 'saving' };
      if (engine.status === 'done') return { kind: 'saved' };
      if (engine.status === 'pending') return engine.error ? { kind: 'local', reason: engine.error.message } : { kind: 'saving' };
      const conflict = conflictOf(engine, local.commandId);
      if (conflict) return { kind: 'conflict', conflict };
      // Given up by the engine: the composer still holds the text (Retry saves it again).
      return { kind: 'failed', reason: engine.error?.message ?? 'The server did not take it.' };
    }
  }
}
