/**
 * The list of search operators beside the search box: the gateway's operators, from the
 * same table its parser reads (shared/search-syntax.ts). A menu button, so it opens with
 * Enter or ArrowDown, arrows and the first letter move in it, and Escape gives the focus
 * back; picking an operator writes it into the box.
 */
import { SEARCH_OPERATORS } from '../../shared/search-syntax';
import { MenuButton, type MenuEntry } from '../kit/Menu';
import { useT, type MessageId } from '../kit/i18n';

/** What picking an operator adds to the query: the whole of it when it takes one value only, else `name:`. */
export function operatorInsertion(name: string): string {
  const operator = SEARCH_OPERATORS.find((known) => known.name === name);
  return operator?.shownValues === 1 ? operator.example : `${name}:`;
}

export function SearchHelp({ onPick }: { onPick: (insertion: string) => void }) {
  const t = useT();
  const entries: MenuEntry[] = SEARCH_OPERATORS.map((operator) => ({
    kind: 'item',
    id: operator.name,
    label: `${operator.name}:`,
    description: `${t(`toolbar.op_${operator.name}` as MessageId)} · ${operator.example}`,
    onSelect: () => onPick(operatorInsertion(operator.name)),
  }));
  return (
    <MenuButton
      label={t('toolbar.searchOperators')}
      title={t('toolbar.searchOperators')}
      className="search-help-button"
      menuClassName="search-help-menu"
      entries={entries}
      header={
        <p className="search-help-note">
          {t('toolbar.combineThem')} <code>from:bob is:unread</code>. {t('toolbar.minusInFront')} <code>-in:inbox</code>. {t('toolbar.quotesKeepWordsTogether')}
        </p>
      }
    >
      <span aria-hidden="true">?</span>
    </MenuButton>
  );
}
