/**
 * Filters (Settings → Rules): the account's filters in the order they run, each with an on/off
 * switch, up and down, edit and delete; "New filter" opens the editor, and so does "Filter
 * messages like this" from an open message (filterPrefillAtom, taken once). Every change is
 * one save of the whole rules to the mail server; a refusal leaves the list as it was.
 * "Apply to existing mail" starts a gateway run; its progress shows under the filter.
 */
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import type { MailFilter } from '../../../shared/mail-rules';
import { Icon } from '../../kit/icons';
import { useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { foldersAtom } from '../../state/atoms';
import { filterPrefillAtom, type FilterPrefill } from '../../state/rules-prefill';
import { FilterEditor } from './FilterEditor';
import { filterSummary, moved, newFilter } from './filter-model';
import { RulesScope, type RulesPageContext } from './RulesScope';
import { RunStatus } from './RunStatus';

export default function FiltersPage() {
  const t = useT();
  const [prefill, setPrefill] = useAtom(filterPrefillAtom);
  // Taken once: a later visit to the page starts from the list.
  const [taken] = useState(prefill);
  useEffect(() => {
    if (taken) setPrefill(null);
  }, [taken, setPrefill]);
  return (
    <RulesScope intro={t('rules.filtersIntro')} {...(taken ? { initialAccountId: taken.accountId } : {})}>
      {(context) => <FilterList context={context} prefill={taken?.accountId === context.account.accountId ? taken : null} />}
    </RulesScope>
  );
}

function FilterList({ context, prefill }: { context: RulesPageContext; prefill: FilterPrefill | null }) {
  const t = useT();
  const { doc, rules, account } = context;
  const folders = (useAtomValue(foldersAtom)[account.accountId] ?? []).map((folder) => folder.path);
  const [editing, setEditing] = useState<MailFilter | null>(() => (prefill ? newFilter(folders, prefill) : null));
  /** The filter whose run is being asked for (until the gateway has it; then its run says the rest). */
  const [starting, setStarting] = useState<string | null>(null);
  const actions = useMailActions();
  const filters = doc.rules.filters;
  const saveFilters = (next: readonly MailFilter[]) => rules.save({ ...doc.rules, filters: [...next] });

  if (editing) {
    const known = filters.some((filter) => filter.id === editing.id);
    return (
      <FilterEditor
        key={editing.id}
        initial={editing}
        folders={folders}
        saving={rules.saving}
        onCancel={() => {
          rules.clearError();
          setEditing(null);
        }}
        onSave={(filter) =>
          void saveFilters(known ? filters.map((existing) => (existing.id === filter.id ? filter : existing)) : [...filters, filter]).then((saved) => saved && setEditing(null))
        }
      />
    );
  }
  return (
    <div className="settings-group">
      {filters.length === 0 ? (
        <p className="field-hint">{t('rules.noFilters')}</p>
      ) : (
        <ol className="rules-list">
          {filters.map((filter, index) => {
            // Runs come newest first: the filter's latest is the one to show.
            const run = rules.runs.find((candidate) => candidate.filterId === filter.id);
            const running = starting === filter.id || run?.state === 'running';
            return (
              <li key={filter.id} className={`rules-item${filter.enabled ? '' : ' rules-item-off'}`}>
                <label className="settings-switch rules-item-switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={filter.enabled}
                    disabled={rules.saving}
                    aria-label={`${t('rules.filterEnabled')}: ${filter.name || t('rules.untitled')}`}
                    onChange={(event) => void saveFilters(filters.map((existing) => (existing.id === filter.id ? { ...existing, enabled: event.target.checked } : existing)))}
                  />
                </label>
                <div className="rules-item-text">
                  <span className="rules-item-name">{filter.name || t('rules.untitled')}</span>
                  <span className="settings-choice-hint">{filterSummary(t, filter)}</span>
                </div>
                <div className="rules-item-buttons">
                  <button type="button" className="icon-button" aria-label={t('rules.moveUp')} title={t('rules.moveUp')} disabled={index === 0 || rules.saving} onClick={() => void saveFilters(moved(filters, index, -1))}>
                    <Icon name="chevronUp" size={16} />
                  </button>
                  <button type="button" className="icon-button" aria-label={t('rules.moveDown')} title={t('rules.moveDown')} disabled={index === filters.length - 1 || rules.saving} onClick={() => void saveFilters(moved(filters, index, 1))}>
                    <Icon name="chevronDown" size={16} />
                  </button>
                  <button type="button" className="button button-secondary" onClick={() => setEditing(filter)}>
                    {t('rules.editFilter')}
                  </button>
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={running}
                    onClick={() => {
                      setStarting(filter.id);
                      void actions.applyFilter({ accountId: account.accountId, filter }).finally(() => setStarting((current) => (current === filter.id ? null : current)));
                    }}
                  >
                    {running ? t('rules.applying') : t('rules.applyExisting')}
                  </button>
                  <button type="button" className="icon-button" aria-label={`${t('rules.deleteFilter')}: ${filter.name || t('rules.untitled')}`} title={t('rules.deleteFilter')} disabled={rules.saving} onClick={() => void saveFilters(filters.filter((existing) => existing.id !== filter.id))}>
                    <Icon name="trash" size={16} />
                  </button>
                </div>
                {run && <RunStatus run={run} label={`${t('rules.applyExisting')}: ${filter.name || t('rules.untitled')}`} />}
              </li>
            );
          })}
        </ol>
      )}
      <button type="button" className="button button-primary rules-new" onClick={() => setEditing(newFilter(folders))}>
        <Icon name="plus" size={16} />
        <span>{t('rules.newFilter')}</span>
      </button>
    </div>
  );
}
