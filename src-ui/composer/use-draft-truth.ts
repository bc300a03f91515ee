/**
 * The composer's part in telling the truth about its draft (save-indicator.ts): what the
 * indicator says from the engine's status for this draft, a conflict the engine reports
 * after the save was recorded (the gateway's 409), and the person's two ways out of one.
 */
import { useEffect, useState, type RefObject } from 'react';
import { TernError } from '../../shared/errors';
import { errorText, useT } from '../kit/i18n';
import type { CommandStatus } from '../../shared/worker-mail-api';
import type { DraftAutosave, DraftConflict, SaveStatus } from './draft-autosave';
import { conflictOf, saveIndicatorOf, type SaveIndicator } from './save-indicator';

export interface DraftTruth {
  readonly indicator: SaveIndicator;
  readonly conflict: DraftConflict | null;
  /** A choice under way (Keep both saving, the other version opening). */
  readonly resolving: boolean;
  readonly keepBoth: () => void;
  /** Absent when the host cannot open the other version. */
  readonly useOther: (() => void) | undefined;
}

export function useDraftTruth(params: {
  readonly autosave: DraftAutosave;
  readonly saveStatus: SaveStatus;
  readonly draftStatuses: Readonly<Record<string, CommandStatus>> | undefined;
  /** The composer opened on a saved draft. */
  readonly opened: boolean;
  /** The command of the composer's last recorded save (the one whose gateway outcome counts). */
  readonly lastSave: RefObject<string | undefined>;
  readonly mounted: RefObject<boolean>;
  readonly accountId: string;
  readonly onUseOtherVersion: ((draft: { readonly accountId: string; readonly draftId: string }) => void) | undefined;
  readonly onNotice: (notice: { kind: 'error' | 'info'; text: string }) => void;
}): DraftTruth {
  const { autosave, mounted, onUseOtherVersion } = params;
  const t = useT();
  const [resolving, setResolving] = useState(false);
  const engineStatus = autosave.draftId ? params.draftStatuses?.[autosave.draftId] : undefined;
  useEffect(() => {
    // The gateway refused a recorded save as stale: a conflict now, not "Saved".
    const reported = conflictOf(engineStatus, params.lastSave.current);
    if (reported && !autosave.conflict) autosave.markConflict(reported);
  }, [engineStatus, autosave]);

  const keepBoth = () => {
    setResolving(true);
    autosave
      .keepBoth()
      .then(() => mounted.current && params.onNotice({ kind: 'info', text: t('composer.noticeKeptSeparately') }))
      .catch((cause: unknown) => mounted.current && params.onNotice({ kind: 'error', text: t('composer.noticeDraftNotSaved', { reason: errorText(t, TernError.from(cause)) }) }))
      .finally(() => mounted.current && setResolving(false));
  };
  const useOther = onUseOtherVersion
    ? () => {
        const draftId = autosave.draftId;
        if (!draftId) return;
        setResolving(true);
        // The person chose the other version: this text is let go on purpose (not kept on close).
        void autosave.stop().then(() => onUseOtherVersion({ accountId: params.accountId, draftId }));
      }
    : undefined;

  return {
    indicator: saveIndicatorOf(params.saveStatus, engineStatus, params.opened),
    conflict: params.saveStatus.status === 'conflict' ? params.saveStatus.conflict : null,
    resolving,
    keepBoth,
    useOther,
  };
}
