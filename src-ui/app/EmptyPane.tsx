/**
 * The reading pane with no conversation open. With rows checked it says how many and what
 * the keys do to them (the toolbar says "64 selected": the pane must not say "No
 * conversation selected" beside it); with nothing checked, how to open one.
 */
import { useAtomValue } from 'jotai';
import { allInScopeSelectedAtom, selectionAtom, visibleListAtom } from '../state/atoms';
import { Icon } from '../kit/icons';

const COUNT_FORMAT = new Intl.NumberFormat();

/** "1 conversation selected", "64 conversations selected". */
export const selectedTitle = (count: number) => `${COUNT_FORMAT.format(count)} conversation${count === 1 ? '' : 's'} selected`;

export function EmptyPane() {
  const checked = useAtomValue(selectionAtom).size;
  const allInScope = useAtomValue(allInScopeSelectedAtom);
  const total = useAtomValue(visibleListAtom).held?.total ?? 0;
  const count = allInScope ? total : checked;
  if (count > 0) {
    return (
      <section className="reading-pane reading-pane-empty" aria-label="Reading pane">
        <Icon name="check" size={48} className="empty-state-icon" />
        <p className="empty-state-title">{selectedTitle(count)}</p>
        <p className="empty-state-text">
          The toolbar’s buttons act on them, or press <kbd>e</kbd> to archive, <kbd>#</kbd> to delete, <kbd>v</kbd> to move; <kbd>Esc</kbd> clears the selection.
        </p>
      </section>
    );
  }
  return (
    <section className="reading-pane reading-pane-empty" aria-label="Reading pane">
      <Icon name="mail" size={48} className="empty-state-icon" />
      <p className="empty-state-title">No conversation selected</p>
      <p className="empty-state-text">
        Pick one from the list, or press <kbd>j</kbd> and <kbd>k</kbd> to move and <kbd>Enter</kbd> to open.
      </p>
    </section>
  );
}
