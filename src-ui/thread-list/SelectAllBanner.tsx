/**
 * The line under the toolbar for "Select all": the offer ("All 64 conversations on this
 * page are selected. Select all 1,234 conversations in Inbox"), the choice made ("All
 * 1,234 … are selected. Clear selection"), and the progress of a command running over
 * the whole list.
 */
import { useAtomValue } from 'jotai';
import { allInScopeSelectedAtom, scopeRunAtom, selectionAtom, visibleListAtom } from '../state/atoms';
import { selectAllState } from '../state/thread-list/scope-selection';
import { useT } from '../kit/i18n';

export function SelectAllBanner(props: { folderName: string; onSelectScope: () => void; onClear: () => void }) {
  const t = useT();
  const held = useAtomValue(visibleListAtom).held;
  const selection = useAtomValue(selectionAtom);
  const allInScope = useAtomValue(allInScopeSelectedAtom);
  const running = useAtomValue(scopeRunAtom);
  if (running) {
    return (
      <div className="select-all-banner">
        <progress className="select-all-progress" aria-label={t('threadList.progressLabel', { verb: running.verb })} value={running.done} max={Math.max(1, running.total)} />
        <span role="status">
          {running.verb} {running.total > 0 ? t('threadList.progress', { done: running.done, count: running.total }) : t('threadList.conversations')}…
        </span>
      </div>
    );
  }
  const state = selectAllState({ held, selection, allInScope });
  if (state.kind === 'none') return null;
  return (
    <div className="select-all-banner">
      {state.kind === 'offer' ? (
        <>
          <span>{t('threadList.pageSelected', { count: state.selected })}</span>
          <button type="button" className="select-all-banner-button" onClick={props.onSelectScope}>
            {t('threadList.selectAllIn', { count: state.total, folder: props.folderName })}
          </button>
        </>
      ) : (
        <>
          <span role="status">
            {t('threadList.allSelected', { count: state.total, folder: props.folderName })}
          </span>
          <button type="button" className="select-all-banner-button" onClick={props.onClear}>
            {t('threadList.clearSelection')}
          </button>
        </>
      )}
    </div>
  );
}
