/**
 * The composer's one DraftAutosave for its life: its status reported while mounted, its
 * last save remembered for the indicator, disposed as the composer leaves, and flushed when
 * the page goes (a reload or a closed tab inside the quiet spell).
 */
import { useEffect, useLayoutEffect, useMemo, type MutableRefObject } from 'react';
import type { DraftInput, DraftSaveReceipt } from '../../shared/worker-mail-api';
import type { ComposerInitial } from './compose-initial';
import { DraftAutosave, type SaveStatus } from './draft-autosave';

export function useComposerAutosave(params: {
  readonly delayMs: number;
  readonly save: (draft: DraftInput) => Promise<DraftSaveReceipt>;
  readonly initial: ComposerInitial;
  /** The save whose gateway outcome the indicator waits for. */
  readonly lastSave: MutableRefObject<string | undefined>;
  readonly mounted: MutableRefObject<boolean>;
  readonly onStatus: (status: SaveStatus) => void;
}): DraftAutosave {
  const { initial, lastSave, mounted } = params;
  const autosave = useMemo(
    () =>
      new DraftAutosave({
        delayMs: params.delayMs,
        save: params.save,
        onStatus: (status) => {
          if (status.status === 'saved') lastSave.current = status.commandId;
          if (mounted.current) params.onStatus(status);
        },
        draftId: initial.draftId,
        ...(initial.revision !== undefined ? { revision: initial.revision } : {}),
      }),
    // One autosaver for the composer's life; the callbacks it holds are the first ones.
    [],
  );
  // A layout-effect cleanup runs before the editor's refs are let go, so a save still waiting reads the body as
  // typed; a passive cleanup ran after them, read an empty editor and saved an empty body over the draft.
  useLayoutEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      autosave.dispose();
    };
  }, [autosave]);
  // A reload or a closed tab inside the quiet spell: what was typed since the last save leaves now (the
  // page is not unmounted, so dispose would not run); the reloaded tab reopens the draft with it.
  useEffect(() => {
    const onPageHide = () => {
      // In conflict nothing is scheduled, but the text must not go with the tab: it is kept as its own draft.
      if (autosave.conflict) void autosave.keepBoth().catch(() => undefined);
      else if (autosave.scheduled) void autosave.flush().catch(() => undefined);
    };
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [autosave]);
  return autosave;
}
