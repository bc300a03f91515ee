/**
 * Auto reply: on or off, first and last day, subject and message, at most once per sender
 * every N days. The server sends it (vacation :mime), to the account's addresses only, never
 * to lists, automated or no-reply senders. A last day before the first is said here and
 * refused by the gateway too.
 */
import { useId, useState, type FormEvent } from 'react';
import type { AutoReply } from '../../../shared/mail-rules';
import { useT } from '../../kit/i18n';
import { ReplyFields } from './ReplyFields';
import { RulesScope, type RulesPageContext } from './RulesScope';

export default function AutoReplyPage() {
  const t = useT();
  return <RulesScope intro={t('rules.autoReplyIntro')}>{(context) => <AutoReplyForm key={context.doc.revision} context={context} />}</RulesScope>;
}

function AutoReplyForm({ context }: { context: RulesPageContext }) {
  const t = useT();
  const id = useId();
  const { doc, rules, addresses } = context;
  const [draft, setDraft] = useState<AutoReply>(doc.rules.autoReply);
  const backwards = Boolean(draft.startDate && draft.endDate && draft.endDate < draft.startDate);
  const noBody = draft.enabled && !draft.body.trim();
  const field = rules.saveFailure?.detail && typeof rules.saveFailure.detail === 'object' ? (rules.saveFailure.detail as { field?: string }).field : undefined;
  const set = (change: Partial<AutoReply>) => {
    rules.clearError();
    setDraft((current) => {
      const next = { ...current, ...change };
      // An empty date field means "no bound": the key is left out.
      if (!next.startDate) delete next.startDate;
      if (!next.endDate) delete next.endDate;
      return next;
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (backwards || noBody) return;
    void rules.save({ ...doc.rules, autoReply: draft });
  };
  return (
    <form className="settings-sections rules-form" onSubmit={submit} noValidate>
      <label className="settings-switch" htmlFor={`${id}-on`}>
        <input id={`${id}-on`} type="checkbox" role="switch" checked={draft.enabled} onChange={(event) => set({ enabled: event.target.checked })} />
        <span className="settings-switch-text">
          <span>{t('rules.autoReplyOn')}</span>
          <span className="settings-choice-hint">{t('rules.addressesUsed', { addresses: addresses.join(', ') })}</span>
        </span>
      </label>
      <div className="rules-dates">
        <div>
          <label className="field-label" htmlFor={`${id}-start`}>
            {t('rules.firstDay')}
          </label>
          <input id={`${id}-start`} className="input" type="date" value={draft.startDate ?? ''} onChange={(event) => set({ startDate: event.target.value })} />
        </div>
        <div>
          <label className="field-label" htmlFor={`${id}-end`}>
            {t('rules.lastDay')}
          </label>
          <input
            id={`${id}-end`}
            className="input"
            type="date"
            value={draft.endDate ?? ''}
            min={draft.startDate}
            aria-invalid={backwards || field === 'autoReply.endDate'}
            aria-describedby={`${id}-dates`}
            onChange={(event) => set({ endDate: event.target.value })}
          />
        </div>
      </div>
      <p id={`${id}-dates`} className={backwards ? 'field-error' : 'field-hint'} role={backwards ? 'alert' : undefined}>
        {backwards ? t('rules.datesBackwards') : t('rules.dateHint')}
      </p>
      <ReplyFields id={id} value={draft} rows={7} bodyMissing={noBody} onChange={set} />
      <div className="rules-days">
        <label className="field-label" htmlFor={`${id}-days`}>
          {t('rules.everyDays')}
        </label>
        <select id={`${id}-days`} className="input settings-select" value={draft.days} onChange={(event) => set({ days: Number(event.target.value) })}>
          {[1, 2, 3, 4, 7, 14, 30].map((days) => (
            <option key={days} value={days}>
              {t('rules.days', { count: days })}
            </option>
          ))}
        </select>
      </div>
      <div>
        <button type="submit" className="button button-primary" disabled={rules.saving || backwards || noBody}>
          {rules.saving ? t('rules.saving') : t('rules.save')}
        </button>
      </div>
    </form>
  );
}
