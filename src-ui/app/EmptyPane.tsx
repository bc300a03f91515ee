/**
 * The reading pane with no conversation open. With rows checked it says how many and what
 * the keys do to them (the toolbar says "64 selected": the pane must not say "No
 * conversation selected" beside it); with nothing checked, how to open one.
 */
import { useAtomValue } from 'jotai';
import { allInScopeSelectedAtom, selectionAtom, visibleListAtom } from '../state/atoms';
import { Icon } from '../kit/icons';
import type { Locale } from '../../shared/locales';
import { format } from '../../shared/strings';
import { RichText, useLocale, useT } from '../kit/i18n';

/** "1 conversation selected", "64 conversations selected". */
export const selectedTitle = (count: number, locale: Locale = 'en') => format(locale, 'app.selectedCount', { count });


export function EmptyPane() {
  const t = useT();
  const locale = useLocale();
  const checked = useAtomValue(selectionAtom).size;
  const allInScope = useAtomValue(allInScopeSelectedAtom);
  const total = useAtomValue(visibleListAtom).held?.total ?? 0;
  const count = allInScope ? total : checked;
  if (count > 0) {
    return (
      <section className="reading-pane reading-pane-empty" aria-label={t('app.readingPane')}>
        <Icon name="check" size={48} className="empty-state-icon" />
        <p className="empty-state-title">{selectedTitle(count, locale)}</p>
        <p className="empty-state-text">
          <RichText id="app.selectionKeys" values={{ e: <kbd>e</kbd>, hash: <kbd>#</kbd>, v: <kbd>v</kbd>, esc: <kbd>Esc</kbd> }} />
        </p>
      </section>
    );
  }
  return (
    <section className="reading-pane reading-pane-empty" aria-label={t('app.readingPane')}>
      <Icon name="mail" size={48} className="empty-state-icon" />
      <p className="empty-state-title">{t('app.noConversationSelected')}</p>
      <p className="empty-state-text">
        <RichText id="app.pickOneKeys" values={{ j: <kbd>j</kbd>, k: <kbd>k</kbd>, enter: <kbd>Enter</kbd> }} />
      </p>
    </section>
  );
}
