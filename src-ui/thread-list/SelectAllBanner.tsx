/**
 * The line under the toolbar for "Select all": the offer ("All 64 conversations on this
 * page are selected. Select all 1,234 conversations in Inbox"), the choice made ("All
 * 1,234 … are selected. Clear selection"), and the progress of a command running over
 * the whole list.
 */
import { useAtomValue } from 'jotai';
import { allInScopeSelectedAtom, scopeRunAtom, selectionAtom, visibleListAtom } from '../state/atoms';
import { conversations } from '../state/scope-run';
import { selectAllState } from './scope-selection';

export function SelectAllBanner(props: { folderName: string; onSelectScope: () => void; onClear: () => void }) {
  const held = useAtomValue(visibleListAtom).held;
  const selection = useAtomValue(selectionAtom);
  const allInScope = useAtomValue(allInScopeSelectedAtom);
  const running = useAtomValue(scopeRunAtom);
  if (running) {
    return (
      <div className="select-all-banner">
        <progress className="select-all-progress" aria-label={`${running.verb} conversations`} value={running.done} max={Math.max(1, running.total)} />
        <span role="status">
          {running.verb} {running.total > 0 ? `${new Intl.NumberFormat().format(running.done)} of ${conversations(running.total)}` : 'conversations'}…
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
          <span>All {conversations(state.selected)} on this page are selected.</span>
          <button type="button" className="select-all-banner-button" onClick={props.onSelectScope}>
            Select all {conversations(state.total)} in {props.folderName}
          </button>
        </>
      ) : (
        <>
          <span role="status">
            All {conversations(state.total)} in {props.folderName} are selected.
          </span>
          <button type="button" className="select-all-banner-button" onClick={props.onClear}>
            Clear selection
          </button>
        </>
      )}
    </div>
  );
}
