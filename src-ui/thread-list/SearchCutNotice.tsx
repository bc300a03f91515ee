/**
 * The line above search results cut at the spec's match limit (1,000 messages): the list
 * holds the newest matches, so a person looking for an older one learns to narrow the
 * search, or asks the gateway's search instead (it also reads message text), which puts
 * `server=1` in the address (issue 13 point 6). Server results say where they come from.
 */
import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { SEARCH_MATCH_LIMIT } from '../../shared/api/reading';
import { useT } from '../kit/i18n';
import { visibleListAtom } from '../state/atoms';

export function SearchCutNotice(props: { server: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const held = useAtomValue(visibleListAtom).held;
  if (!held) return null;
  if (props.server) {
    return (
      <div className="select-all-banner search-cut-notice" role="status">
        {t('threadList.serverResults')} {held.truncated ? t('threadList.searchCut', { count: SEARCH_MATCH_LIMIT }) : ''}
      </div>
    );
  }
  if (!held.truncated) return null;
  return (
    <div className="select-all-banner search-cut-notice">
      <span role="status">{t('threadList.searchCut', { count: SEARCH_MATCH_LIMIT })}</span>
      <button
        type="button"
        className="select-all-banner-button"
        onClick={() => void navigate({ to: '.', search: (previous: Record<string, unknown>) => ({ ...previous, server: '1' as const, thread: undefined }) })}
      >
        {t('threadList.searchTheServer')}
      </button>
    </div>
  );
}
