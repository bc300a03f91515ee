/**
 * The line above search results cut at the spec's match limit (1,000 messages): the list
 * holds the newest matches, and a person looking for an older one must know to narrow the
 * search rather than scroll on (issue 13 point 6).
 */
import { useAtomValue } from 'jotai';
import { SEARCH_MATCH_LIMIT } from '../../shared/api/reading';
import { useT } from '../kit/i18n';
import { visibleListAtom } from '../state/atoms';

export function SearchCutNotice() {
  const t = useT();
  const held = useAtomValue(visibleListAtom).held;
  if (!held?.truncated) return null;
  return (
    <div className="select-all-banner search-cut-notice" role="status">
      {t('threadList.searchCut', { count: SEARCH_MATCH_LIMIT })}
    </div>
  );
}
